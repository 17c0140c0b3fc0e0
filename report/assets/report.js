(function () {
  'use strict';
  // The report's data is inert JSON in <script type="application/json">
  // blocks; everything from it is rendered with textContent, never as markup.
  var metaEl = document.getElementById('meta');
  if (!metaEl) { return; }
  var meta = JSON.parse(metaEl.textContent);
  var rows = meta.rows;
  // Columns of a row (see writeData in html.go).
  var URI = 0, KIND = 1, CAPS = 2, OFF = 3, ON = 4, NS = 5, GUARD = 6, MIN = 7, FIRST = 8, LAST = 9, T0 = 10, KEY = 11, OKINDS = 12, AUD = 13;
  // Fields of an audited document's AUD (see auditRow in html.go), and its verdicts.
  var A_TOPIC = 0, A_PUB = 1, A_FROM = 2, A_WIN = 3, A_TIME = 4, A_WHY = 5;
  var A_VERDICT = ['on-topic', 'off-topic', 'outside the window', 'not scored'], A_CLASS = ['on', 'off', 'ns', 'ns'];
  var audit = meta.audit || null;
  // Fields of a capture (see htmlDetail in html.go).
  var TS = 0, V = 1, STATUS = 2, WORDS = 3, SCORES = 4, MASK = 5, REASON = 6, TITLE = 7, EXCERPT = 8, URIM = 9, NOLINK = 10, CKEY = 11, OKIND = 12, SHOWN = 13;
  var VON = 0, VOFF = 1, VNS = 2, VGUARD = 3;
  var VERDICT = ['on-topic', 'off-topic', 'not scored', 'on-topic'];
  var VCLASS = ['on', 'off', 'ns', 'guard'];
  var DECISIONS = ['on-topic', 'off-topic', 'unsure'];
  var PAGE = 50;
  var SVG = 'http://www.w3.org/2000/svg';

  var table = document.getElementById('tms');
  var tbody = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  var show = document.getElementById('show');
  var filter = document.getElementById('filter');
  var shown = document.getElementById('shown');
  var range = document.getElementById('range');
  var prev = document.getElementById('prev');
  var next = document.getElementById('next');
  var offkind = document.getElementById('offkind');
  // Kinds of off-topic: rows hold a bit per kind, captures 1 + its position.
  var OFFKINDS = meta.offkinds || [];
  function kindPos(name) { for (var i = 0; i < OFFKINDS.length; i++) { if (OFFKINDS[i][0] === name) { return i; } } return -1; }
  function kindLabel(c) { var k = c[OKIND] || 0; return k > 0 && k <= OFFKINDS.length ? OFFKINDS[k - 1][1] : ''; }
  function rowKinds(r) {
    var out = [];
    for (var i = 0; i < OFFKINDS.length; i++) { if ((r[OKINDS] || 0) & (1 << i)) { out.push(OFFKINDS[i][0]); } }
    return out.join(', ');
  }

  var state = { sort: audit ? 'dist' : 'share', dir: audit ? 1 : -1, page: 0, open: -1, cur: -1, curFor: -1 };
  var list = null; // ids shown, in order; null when it must be recomputed
  var byKey = null; // TimeMap key -> id

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function svg(tag, attrs, title) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { e.setAttribute(k, attrs[k]); } }
    if (title) { var t = document.createElementNS(SVG, 'title'); t.textContent = title; e.appendChild(t); }
    return e;
  }
  function httpLink(u) { return typeof u === 'string' && /^https?:\/\/[^\s\/]/i.test(u) && !/[\s\x00]/.test(u) ? u : ''; }
  function link(href, text) {
    var a = el('a', null, text);
    a.href = href;
    a.rel = 'noopener noreferrer';
    a.target = '_blank';
    return a;
  }
  function day(n) { var s = String(n); return s.length === 8 ? s.slice(0, 4) + '-' + s.slice(4, 6) + '-' + s.slice(6) : ''; }
  function when(ts) { return ts.slice(0, 4) + '-' + ts.slice(4, 6) + '-' + ts.slice(6, 8) + ' ' + ts.slice(8, 10) + ':' + ts.slice(10, 12); }
  function tsTime(ts) { return Date.UTC(+ts.slice(0, 4), +ts.slice(4, 6) - 1, +ts.slice(6, 8), +ts.slice(8, 10), +ts.slice(10, 12), +ts.slice(12, 14)); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function share(r) { return r[OFF] + r[ON] > 0 ? r[OFF] / (r[OFF] + r[ON]) : 0; }
  function isPage(r) { return r[KIND] === 0; }

  // Decisions: capture key ("SURT-key timestamp") -> {d, m (URI-M), r (URI-R), id}.
  // They are kept in the browser's IndexedDB, one record per mark (a mark
  // writes only what changed, and a collection's 50,000 marks fit where
  // localStorage's 5 MB do not). unsaved holds the keys of marks, and of
  // marks taken back, that are not in a saved decisions file yet. When the
  // browser refuses to store a mark, the page says so at once and keeps
  // saying it until a later write succeeds.
  var decisions = {};
  var decCount = {};
  // Rows with captures new or changed since the previous run of the
  // collection's state; its decisions are adopted as saved ones.
  var newRows = {};
  (meta.news || []).forEach(function (i) { newRows[i] = true; });
  var unsaved = {};
  var pending = {}; // keys to write at the next persist
  var storeKey = 'offtopic-decisions:' + meta.id; // the localStorage key of earlier versions
  var DB = 'offtopic', MARKS = 'marks';
  var db = null, dbState = 'opening', dbError = '';
  var writing = 0; // write transactions not yet finished (data-writing on #review)
  var ndec = document.getElementById('ndec');
  var nunsaved = document.getElementById('nunsaved');
  var alertBox = document.getElementById('store-alert');
  var review = document.getElementById('review');
  function keyIndex() {
    if (!byKey) {
      byKey = {};
      for (var i = 0; i < rows.length; i++) { byKey['k ' + rows[i][KEY]] = i; byKey['u ' + rows[i][URI]] = i; }
    }
    return byKey;
  }
  function recount() {
    decCount = {};
    var n = 0, u = 0;
    for (var k in decisions) {
      if (!has(decisions, k)) { continue; }
      n++;
      var id = decisions[k].id;
      if (id >= 0) { decCount[id] = (decCount[id] || 0) + 1; }
    }
    for (k in unsaved) { if (has(unsaved, k)) { u++; } }
    ndec.textContent = String(n);
    nunsaved.textContent = String(u);
    nunsaved.parentNode.className = u ? 'unsaved' : 'unsaved none';
    return n;
  }
  function storageProblem(text) {
    dbError = text;
    if (!text) { alertBox.hidden = true; return; }
    alertBox.textContent = '';
    alertBox.appendChild(el('b', null, 'Your marks are not being kept by the browser. '));
    alertBox.appendChild(document.createTextNode(text + ' Marks made since stay only while this tab is open: save decisions to a file now.'));
    var b = el('button', null, 'Save decisions');
    b.type = 'button';
    b.addEventListener('click', saveFile);
    alertBox.appendChild(b);
    alertBox.hidden = false;
  }
  function errText(e) { return e ? (e.name ? e.name + ': ' : '') + (e.message || String(e)) : 'unknown error'; }
  function record(ck) {
    var e = decisions[ck];
    return { rep: meta.id, ck: ck, d: e ? e.d : '', m: e ? e.m : '', r: e ? e.r : '', id: e ? e.id : -1, u: unsaved[ck] ? 1 : 0 };
  }
  // write stores the marks of keys in one transaction; a removed mark that
  // is not in a saved file either is deleted, else kept as a record with
  // no decision until the next save.
  function write(keys, then) {
    if (!keys.length) { if (then) { then(true); } return; }
    if (!db) {
      if (dbState === 'opening') { keys.forEach(function (k) { pending[k] = true; }); return; }
      storageProblem(dbError || 'This browser offers no storage (IndexedDB) to this page.');
      if (then) { then(false); }
      return;
    }
    var tx;
    function settled() { writing--; review.setAttribute('data-writing', String(writing)); }
    function failed(e) {
      keys.forEach(function (k) { pending[k] = true; }); // tried again at the next mark
      storageProblem('Storing ' + keys.length + ' marks failed (' + errText(e) + ').');
      if (then) { then(false); }
    }
    try {
      tx = db.transaction(MARKS, 'readwrite');
      var st = tx.objectStore(MARKS);
      keys.forEach(function (ck) {
        if (!decisions[ck] && !unsaved[ck]) { st.delete([meta.id, ck]); } else { st.put(record(ck)); }
      });
    } catch (e) { failed(e); return; }
    writing++;
    review.setAttribute('data-writing', String(writing));
    tx.oncomplete = function () { settled(); if (dbError) { storageProblem(''); } if (then) { then(true); } };
    tx.onabort = function () { settled(); failed(tx.error); };
  }
  function persist() {
    recount();
    var keys = Object.keys(pending);
    pending = {};
    write(keys);
  }
  function decide(ck, d, urim, urir, id) {
    var before = decisions[ck] ? decisions[ck].d : '';
    if (d) { decisions[ck] = { d: d, m: urim, r: urir, id: id }; } else { delete decisions[ck]; }
    if (before !== (d || '')) { unsaved[ck] = true; pending[ck] = true; }
  }
  // restore reads this report's marks (and moves those an earlier version
  // kept in localStorage over), then calls done.
  function restore(done) {
    var old = null;
    try {
      var s = window.localStorage.getItem(storeKey);
      if (s) { old = JSON.parse(s); }
    } catch (e) { old = null; }
    function adopt(ck, e, u) {
      if (has(decisions, ck) || pending[ck] || !e || DECISIONS.indexOf(e.d) < 0 && e.d !== '') { return; }
      if (e.d) { decisions[ck] = { d: e.d, m: e.m || '', r: e.r || '', id: typeof e.id === 'number' ? e.id : -1 }; }
      if (u) { unsaved[ck] = true; }
    }
    function finish() {
      review.setAttribute('data-store', dbState);
      (meta.decided || []).forEach(function (x) {
        if (!has(decisions, x[0]) && !pending[x[0]] && DECISIONS.indexOf(x[1]) >= 0) { decisions[x[0]] = { d: x[1], m: x[2], r: x[3], id: x[4] }; }
      });
      if (old && typeof old === 'object') {
        var moved = [];
        Object.keys(old).forEach(function (ck) { if (!has(decisions, ck)) { adopt(ck, old[ck], true); moved.push(ck); } });
        write(moved, function (ok) { if (ok) { try { window.localStorage.removeItem(storeKey); } catch (e) { /* kept there too */ } } });
      }
      persist();
      done();
    }
    function unavailable(e) {
      db = null; dbState = 'failed';
      storageProblem('This browser gives the page no storage for marks (' + errText(e) + ').');
      finish();
    }
    var req;
    try { req = window.indexedDB.open(DB, 1); } catch (e) { unavailable(e); return; }
    req.onupgradeneeded = function () { req.result.createObjectStore(MARKS, { keyPath: ['rep', 'ck'] }); };
    req.onerror = function () { unavailable(req.error); };
    req.onblocked = function () { unavailable(new Error('the store is being upgraded by another tab')); };
    req.onsuccess = function () {
      db = req.result; dbState = 'open';
      db.onversionchange = function () { db.close(); db = null; dbState = 'closed'; };
      var got;
      try {
        got = db.transaction(MARKS).objectStore(MARKS).getAll(IDBKeyRange.bound([meta.id, ''], [meta.id, '\uffff']));
      } catch (e) { unavailable(e); return; }
      got.onsuccess = function () {
        got.result.forEach(function (rec) { adopt(rec.ck, rec, rec.u); });
        finish();
      };
      got.onerror = function () { unavailable(got.error); };
    };
  }

  // The toast: feedback shown where the curator is, whatever the scroll.
  // A message goes after 6 s; one with commands to copy (sticky) stays
  // until it is closed or the next message replaces it.
  var toast = document.getElementById('toast'), toastTimer = 0;
  function say(text, sticky) {
    toast.textContent = '';
    clearTimeout(toastTimer);
    if (sticky) {
      sticky.forEach(function (part, i) { toast.appendChild(i % 2 ? el('code', null, part) : document.createTextNode(part)); });
      var x = el('button', 'toast-close', '\u00d7');
      x.type = 'button';
      x.title = 'close';
      x.addEventListener('click', function () { toast.hidden = true; });
      toast.appendChild(x);
    } else {
      toast.textContent = text;
      toastTimer = setTimeout(function () { toast.hidden = true; }, 6000);
    }
    toast.setAttribute('data-sticky', sticky ? 'true' : 'false');
    toast.hidden = false;
  }

  // The worklist.
  function matches(i, what, q) {
    var r = rows[i];
    if (q && r[URI].toLowerCase().indexOf(q) < 0) { return false; }
    var kp = offkind && offkind.value ? kindPos(offkind.value) : -1;
    if (kp >= 0 && !((r[OKINDS] || 0) & (1 << kp))) { return false; }
    switch (what) {
      case 'pages': return isPage(r);
      case 'new': return !!newRows[i];
      case 'off': return r[OFF] > 0;
      case 'guard': return r[GUARD] > 0;
      case 'not': return isPage(r) && !r[T0];
      case 'reviewed': return (decCount[i] || 0) > 0;
      case 'other': return !isPage(r);
      case 'below': return aud(r)[A_WHY] === 1;
      case 'outside': return aud(r)[A_WHY] === 2;
    }
    return true;
  }
  function sortKey(col) {
    switch (col) {
      case 'uri': return function (i) { return rows[i][URI].toLowerCase(); };
      case 'captures': return function (i) { return rows[i][CAPS]; };
      case 'off': return function (i) { return rows[i][OFF]; };
      case 'share': return function (i) { return share(rows[i]) * 1e7 + Math.min(rows[i][OFF], 9999999) / 1e3; };
      case 'guard': return function (i) { return rows[i][GUARD]; };
      case 'kinds': return function (i) { return rowKinds(rows[i]); };
      case 'ns': return function (i) { return rows[i][NS]; };
      case 'min': return function (i) { return rows[i][MIN] === null ? Infinity : rows[i][MIN]; };
      case 'first': return function (i) { return rows[i][FIRST]; };
      case 'last': return function (i) { return rows[i][LAST]; };
      case 'dec': return function (i) { return decCount[i] || 0; };
      case 'topic': return function (i) { var v = aud(rows[i])[A_TOPIC]; return v === null ? Infinity : v; };
      case 'dist': return function (i) { return distance(rows[i]); };
      case 'pub': return function (i) { return aud(rows[i])[A_PUB]; };
      case 'from': return function (i) { return aud(rows[i])[A_FROM]; };
      case 'win': return function (i) { var w = aud(rows[i])[A_WIN]; return w === null ? -1 : w; };
      case 'temp': return function (i) { var v = aud(rows[i])[A_TIME]; return v === null ? Infinity : v; };
      case 'verdict': return function (i) { return aud(rows[i])[A_WHY]; };
    }
    return function (i) { return i; };
  }
  function compute() {
    var what = show.value, q = filter.value.trim().toLowerCase();
    var ids = [];
    for (var i = 0; i < rows.length; i++) { if (matches(i, what, q)) { ids.push(i); } }
    var k = sortKey(state.sort), dir = state.dir;
    var keyed = ids.map(function (i) { return [k(i), i]; });
    keyed.sort(function (a, b) {
      if (a[0] < b[0]) { return -dir; }
      if (a[0] > b[0]) { return dir; }
      var ua = rows[a[1]][URI], ub = rows[b[1]][URI]; // ties: by URI, then as written
      return ua < ub ? -1 : ua > ub ? 1 : a[1] - b[1];
    });
    list = keyed.map(function (x) { return x[1]; });
  }
  function render() {
    if (!list) { compute(); }
    var pages = Math.max(1, Math.ceil(list.length / PAGE));
    state.page = Math.min(Math.max(0, state.page), pages - 1);
    var from = state.page * PAGE, to = Math.min(list.length, from + PAGE);
    var frag = document.createDocumentFragment();
    for (var j = from; j < to; j++) {
      var id = list[j];
      frag.appendChild(rowElement(id));
      if (id === state.open) { frag.appendChild(detailRow(id)); }
    }
    tbody.textContent = '';
    tbody.appendChild(frag);
    shown.textContent = String(list.length);
    range.textContent = list.length ? (from + 1) + '–' + to + ' of ' + list.length : 'none';
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
    if (state.cur >= 0) { showCurrent(true); }
    for (var i = 0; i < heads.length; i++) {
      var c = heads[i].getAttribute('data-col');
      heads[i].setAttribute('aria-sort', c === state.sort ? (state.dir > 0 ? 'ascending' : 'descending') : 'none');
    }
  }
  function num(cls, v, text) {
    var td = el('td', 'num' + (cls ? ' ' + cls : ''), text === undefined ? v : text);
    td.setAttribute('data-v', String(v));
    return td;
  }
  function rowElement(id) {
    var r = rows[id];
    if (audit) { return auditRowElement(id, r); }
    var tr = el('tr');
    tr.id = 'row-' + id;
    tr.setAttribute('data-id', String(id));
    tr.setAttribute('data-u', r[URI].toLowerCase());
    tr.setAttribute('data-off', String(r[OFF]));
    if (r[OFF] > 0) { tr.className = 'hasoff'; }
    if (id === state.open) { tr.className += ' isopen'; }
    var td = el('td', 'uri');
    var a = el('a', null, r[URI]);
    a.href = '#tm-' + id;
    td.appendChild(a);
    if (!isPage(r)) { td.appendChild(el('span', 'v ns', meta.kinds[r[KIND]])); } else if (!r[T0]) { td.appendChild(el('span', 'v ns', 'no t0')); }
    tr.appendChild(td);
    tr.appendChild(num('', r[CAPS]));
    tr.appendChild(num('offn', r[OFF]));
    var sh = share(r);
    var sc = num('', sh.toFixed(4), '');
    var m = el('meter');
    m.min = 0; m.max = 1; m.low = 0.2; m.high = 0.5; m.optimum = 0; m.value = sh;
    sc.appendChild(m);
    sc.appendChild(document.createTextNode(' ' + (100 * sh).toFixed(1) + '%'));
    tr.appendChild(sc);
    tr.appendChild(el('td', 'kinds', rowKinds(r)));
    tr.appendChild(num(r[GUARD] ? 'guardn' : '', r[GUARD]));
    tr.appendChild(num('', r[NS]));
    tr.appendChild(r[MIN] === null ? num('', '', '–') : num('', r[MIN], r[MIN].toFixed(3)));
    tr.appendChild(num('', r[FIRST], day(r[FIRST])));
    tr.appendChild(num('', r[LAST], day(r[LAST])));
    tr.appendChild(num('', decCount[id] || 0, decCount[id] ? String(decCount[id]) : ''));
    return tr;
  }

  // An audit's document: its topic against the threshold, when it was
  // published and whether that is in the event's window.
  function aud(r) { return r[AUD] || [null, 0, '', 0, null, 3]; }
  function distance(r) { var v = aud(r)[A_TOPIC]; return v === null ? Infinity : Math.abs(v - audit.thr); }
  // digits: 3 decimals, or as many more (up to 8) as a and b need to read
  // differently when they differ (0.0849 against a threshold of 0.0850).
  function digits(a, b) { var p = 3; while (p < 8 && a !== b && a.toFixed(p) === b.toFixed(p)) { p++; } return p; }
  function signed(v) { var p = digits(Math.abs(v), 0); return (v >= 0 ? '+' : '\u2212') + Math.abs(v).toFixed(p); }
  function auditRowElement(id, r) {
    var a = aud(r), tr = el('tr');
    tr.id = 'row-' + id;
    tr.setAttribute('data-id', String(id));
    tr.setAttribute('data-u', r[URI].toLowerCase());
    tr.setAttribute('data-off', String(r[OFF]));
    if (id === state.open) { tr.className = 'isopen'; }
    var td = el('td', 'uri'), ln = el('a', null, r[URI]);
    ln.href = '#tm-' + id;
    td.appendChild(ln);
    tr.appendChild(td);
    var topic = a[A_TOPIC];
    tr.appendChild(topic === null ? num('', '', '\u2013') : num(a[A_WHY] === 1 ? 'offn' : '', topic, topic.toFixed(digits(topic, audit.thr))));
    tr.appendChild(topic === null ? num('', '', '\u2013') : num('', Math.abs(topic - audit.thr), signed(topic - audit.thr)));
    tr.appendChild(num('', a[A_PUB], a[A_PUB] ? day(a[A_PUB]) : 'undated'));
    tr.appendChild(el('td', 'from', String(a[A_FROM] || '').replace(/-/g, ' ')));
    tr.appendChild(a[A_WIN] === null ? el('td', 'win', '\u2013') : el('td', a[A_WIN] ? 'win' : 'win out', a[A_WIN] ? 'in' : 'outside'));
    tr.appendChild(a[A_TIME] === null ? num('', '', '\u2013') : num('', a[A_TIME], a[A_TIME].toFixed(3)));
    var vt = el('td');
    vt.appendChild(el('span', 'v ' + A_CLASS[a[A_WHY]], A_VERDICT[a[A_WHY]]));
    tr.appendChild(vt);
    tr.appendChild(num('', decCount[id] || 0, decCount[id] ? String(decCount[id]) : ''));
    return tr;
  }
  function auditMeta(id, r, d) {
    var a = aud(r), p = el('p', 'meta');
    var u = httpLink(r[URI]);
    p.appendChild(document.createTextNode('Document '));
    p.appendChild(u ? link(u, r[URI]) : el('span', 'nolink', r[URI]));
    p.appendChild(document.createTextNode(u ? ' (the live page)' : ''));
    var line = ' \u00b7 topic ' + (a[A_TOPIC] === null ? 'not scored' : a[A_TOPIC].toFixed(digits(a[A_TOPIC], audit.thr)) + ' (threshold ' + audit.thr + ')') +
      ' \u00b7 published ' + (a[A_PUB] ? day(a[A_PUB]) + (a[A_FROM] ? ' (from ' + String(a[A_FROM]).replace(/-/g, ' ') + ')' : '') : 'undated') +
      (a[A_WIN] === null ? '' : ', ' + (a[A_WIN] ? 'in' : 'outside') + ' the window ' + audit.from + ' to ' + audit.to) + ' \u00b7 ';
    p.appendChild(document.createTextNode(line));
    var back = el('a', 'back', 'back to the list');
    back.href = '#row-' + id;
    p.appendChild(back);
    return p;
  }

  // One TimeMap's captures, drawn when it is opened.
  var cache = {};
  function detailData(id) {
    if (!cache[id]) {
      var node = document.getElementById('d-' + id);
      if (!node) { return null; }
      cache = {}; // keep one: a collection can be far larger than memory wants
      cache[id] = JSON.parse(node.textContent);
    }
    return cache[id];
  }
  function captureURIM(d, r, c) { return c[URIM] || (meta.prefix + c[TS] + '/' + r[URI]); }
  function captureKey(d, c) { return (c[CKEY] || d.k) + ' ' + c[TS]; }

  function detailRow(id) {
    var tr = el('tr', 'detail');
    tr.id = 'open-' + id; // not tm-N: the script, not the browser, decides where to scroll
    var td = el('td');
    td.colSpan = heads.length;
    td.appendChild(detailBody(id));
    tr.appendChild(td);
    return tr;
  }
  function detailBody(id) {
    var r = rows[id], d = detailData(id);
    var box = el('div', 'tmbody');
    if (!d) {
      if (document.readyState === 'loading') {
        // Its data is further down the file than the browser has read yet.
        box.appendChild(el('p', 'warn', 'Still reading the report\u2019s data: this page\u2019s captures appear as soon as it is in.'));
        waiting = id;
      } else {
        box.appendChild(el('p', 'warn', 'This TimeMap has no data in the report.'));
      }
      return box;
    }
    var caps = d.c;
    if (audit) {
      box.appendChild(auditMeta(id, r, d));
      box.appendChild(captureTable(id, r, d));
      return box;
    }
    var p = el('p', 'meta');
    var u = httpLink(r[URI]);
    p.appendChild(document.createTextNode('URI-R '));
    p.appendChild(u ? link(u, r[URI]) : el('span', 'nolink', r[URI]));
    var urit = d.t === '-' ? httpLink(meta.prefix + 'timemap/link/' + r[URI]) : d.t;
    if (urit) { p.appendChild(document.createTextNode(' · ')); p.appendChild(link(urit, 'TimeMap')); }
    var t0 = d.t0 >= 0 ? caps[d.t0] : null;
    p.appendChild(document.createTextNode(' · t0: ' + (t0 ? when(t0[TS]) : 'none') + (d.t0r ? ' (' + d.t0r + ')' : '') + ' · '));
    var back = el('a', 'back', 'back to the list');
    back.href = '#row-' + id;
    p.appendChild(back);
    box.appendChild(p);
    if (t0) {
      var tt = el('p', 't0text');
      tt.appendChild(el('b', null, 't0 text: '));
      if (t0[TITLE]) { tt.appendChild(el('span', 'ttl', t0[TITLE])); }
      tt.appendChild(document.createTextNode(t0[EXCERPT] || '(no text)'));
      box.appendChild(tt);
    }
    if (d.m && d.m.length) { box.appendChild(timeline(d)); box.appendChild(legend(d)); }
    box.appendChild(bulkBar(id, r, d));
    box.appendChild(captureTable(id, r, d));
    return box;
  }

  function ruleValue(m) {
    for (var i = 0; i < meta.rule.length; i++) { if (meta.rule[i][0] === m) { return meta.rule[i][1]; } }
    return null;
  }
  function timeline(d) {
    var W = 1000, H = 170, L = 44, Rt = 990, T = 8, B = 146;
    var caps = d.c, lo = 0, hi = 1;
    d.m.forEach(function (m) { if (m === 'wordcount' || m === 'bytecount') { lo = -1; } });
    var tmin = Infinity, tmax = -Infinity;
    caps.forEach(function (c) {
      var t = tsTime(c[TS]);
      tmin = Math.min(tmin, t); tmax = Math.max(tmax, t);
      if (c[V] !== VNS && c[SCORES]) { c[SCORES].forEach(function (s) { if (s !== null && s > hi) { hi = Math.min(Math.ceil(s * 4) / 4, 1.5); } }); }
    });
    var span = tmax - tmin;
    function x(t) { return span <= 0 ? (L + Rt) / 2 : L + 6 + (t - tmin) / span * (Rt - L - 12); }
    function y(v) { v = Math.min(Math.max(v, lo), hi); return B - (v - lo) / (hi - lo) * (B - T); }
    function f(v) { return String(Math.round(v * 10) / 10); }
    var s = svg('svg', { 'class': 'tl', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'scores over time' });
    caps.forEach(function (c) {
      if (c[V] === VOFF) { s.appendChild(svg('rect', { 'class': 'offband', x: f(x(tsTime(c[TS])) - 4), y: T, width: 8, height: B - T }, when(c[TS]) + ' off-topic: ' + (c[REASON] || ''))); }
    });
    var step = hi - lo > 1.25 ? 0.5 : 0.25;
    for (var v = lo; v <= hi + 1e-9; v += step) {
      s.appendChild(svg('line', { 'class': 'grid', x1: L, y1: f(y(v)), x2: Rt, y2: f(y(v)) }));
      var tx = svg('text', { x: L - 5, y: f(y(v) + 3), 'text-anchor': 'end' });
      tx.textContent = String(Math.round(v * 100) / 100);
      s.appendChild(tx);
    }
    s.appendChild(svg('line', { 'class': 'axis', x1: L, y1: B, x2: Rt, y2: B }));
    // Date axis: years when the TimeMap spans two or more, else months or the ends.
    var a = new Date(tmin), b = new Date(tmax), ticks = [];
    var years = b.getUTCFullYear() - a.getUTCFullYear();
    if (years >= 2) {
      var st = Math.ceil(years / 10);
      for (var yr = a.getUTCFullYear() + 1; yr <= b.getUTCFullYear(); yr += st) { ticks.push([Date.UTC(yr, 0, 1), String(yr)]); }
    } else if (span > 0) {
      var months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
      var ms = Math.max(1, Math.ceil(months / 8));
      for (var k = 1; k <= months; k += ms) {
        var dt = Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + k, 1);
        var dd = new Date(dt);
        ticks.push([dt, dd.getUTCFullYear() + '-' + String(dd.getUTCMonth() + 1).padStart(2, '0')]);
      }
      if (!ticks.length) { ticks.push([tmin, when(caps[0][TS]).slice(0, 10)]); }
    } else {
      ticks.push([tmin, new Date(tmin).toISOString().slice(0, 10)]);
    }
    ticks.forEach(function (tk) {
      var t = svg('text', { x: f(x(tk[0])), y: B + 15, 'text-anchor': 'middle' });
      t.textContent = tk[1];
      s.appendChild(t);
    });
    // Threshold lines, their labels stacked at least a line apart (close
    // thresholds would print them over each other) and kept in the plot.
    var labs = [];
    d.m.forEach(function (m) {
      var val = ruleValue(m);
      if (val === null) { return; }
      s.appendChild(svg('line', { 'class': 'thr', x1: L, y1: f(y(val)), x2: Rt, y2: f(y(val)) }));
      labs.push({ y: y(val) - 3, text: m + ' < ' + val });
    });
    labs.sort(function (a, b) { return a.y - b.y; });
    var LH = 13; // a 10px label with its descent
    labs.forEach(function (l, i) { if (i > 0 && l.y - labs[i - 1].y < LH) { l.y = labs[i - 1].y + LH; } });
    var over = labs.length ? labs[labs.length - 1].y - (B - 2) : 0;
    labs.forEach(function (l) { l.y = Math.max(l.y - Math.max(over, 0), T + 9); });
    labs.forEach(function (l) {
      var t = svg('text', { 'class': 'thrlab', x: Rt, y: f(l.y), 'text-anchor': 'end' });
      t.textContent = l.text;
      s.appendChild(t);
    });
    var order = caps.map(function (c, i) { return i; }).sort(function (i, j) { return caps[i][TS] < caps[j][TS] ? -1 : caps[i][TS] > caps[j][TS] ? 1 : i - j; });
    d.m.forEach(function (m, j) {
      var pts = [];
      order.forEach(function (i) {
        var c = caps[i];
        if (c[V] === VNS || !c[SCORES] || c[SCORES][j] === null || c[SCORES][j] === undefined) { return; }
        pts.push(f(x(tsTime(c[TS]))) + ',' + f(y(c[SCORES][j])));
      });
      if (pts.length) { s.appendChild(svg('polyline', { 'class': 'ln m-' + m, points: pts.join(' ') })); }
      if (ruleValue(m) !== null) {
        pts.forEach(function (pt) { var xy = pt.split(','); s.appendChild(svg('circle', { 'class': 'pt m-' + m, cx: xy[0], cy: xy[1], r: 3 })); });
      }
    });
    caps.forEach(function (c) {
      var cx = f(x(tsTime(c[TS])));
      if (c[V] === VOFF) { s.appendChild(svg('path', { 'class': 'offmark', d: 'M' + cx + ' ' + (B + 1) + 'l-5 8h10z' }, when(c[TS]) + ' off-topic')); }
      if (c[V] === VGUARD) { s.appendChild(svg('path', { 'class': 'guardmark', d: 'M' + cx + ' ' + (B + 1) + 'l-4 7h8z' }, when(c[TS]) + ' kept on-topic by the curator\'s reading')); }
      if (c[V] === VNS) { s.appendChild(svg('path', { 'class': 'nsmark', d: 'M' + cx + ' ' + (B + 1) + 'l-3 6h6z' }, when(c[TS]) + ' not scored: ' + (c[REASON] || ''))); }
    });
    return s;
  }
  function legend(d) {
    var lg = el('div', 'legend');
    d.m.forEach(function (m) { var sp = el('span'); sp.appendChild(el('i', 'm-' + m)); sp.appendChild(document.createTextNode(m)); lg.appendChild(sp); });
    [['thr', 'threshold of the rule'], ['offk', 'off-topic capture'], ['guardk', 'kept on-topic by the curator\'s reading']].forEach(function (k) {
      var sp = el('span'); sp.appendChild(el('i', k[0])); sp.appendChild(document.createTextNode(k[1])); lg.appendChild(sp);
    });
    return lg;
  }

  // Marking: one capture with its buttons, many with the bulk bar.
  function bulkBar(id, r, d) {
    var bar = el('div', 'bulk');
    var order = d.c.map(function (c, i) { return i; }).sort(function (i, j) { return d.c[i][TS] < d.c[j][TS] ? -1 : 1; });
    function dateSelect(cls, last) {
      var s = el('select', cls);
      order.forEach(function (i, n) {
        var o = el('option', null, when(d.c[i][TS]));
        o.value = d.c[i][TS];
        if (last ? n === order.length - 1 : n === 0) { o.selected = true; }
        s.appendChild(o);
      });
      return s;
    }
    // The off-topic verdicts by default; t0 only when chosen.
    var which = el('select', 'b-which');
    [['off', 'off-topic verdicts'], ['guard', 'captures kept on-topic by the reading'], ['on', 'on-topic verdicts'], ['undecided', 'captures without a decision'], ['all', 'all captures but t0'], ['all+t0', 'all captures, t0 included']].forEach(function (w) {
      var o = el('option', null, w[1]); o.value = w[0]; which.appendChild(o);
    });
    which.value = 'off';
    OFFKINDS.forEach(function (k, i) {
      if (!((r[OKINDS] || 0) & (1 << i))) { return; }
      var o = el('option', null, 'off-topic: ' + k[1]); o.value = 'k' + (i + 1); which.appendChild(o);
    });
    var as = el('select', 'b-as');
    DECISIONS.concat(['']).forEach(function (v) { var o = el('option', null, v || 'no decision'); o.value = v; as.appendChild(o); });
    as.value = 'off-topic';
    var from = dateSelect('b-from', false), to = dateSelect('b-to', true);
    var apply = el('button', 'b-apply', 'Mark');
    apply.type = 'button';
    apply.addEventListener('click', function () {
      var n = markRange(id, r, d, from.value, to.value, which.value, as.value);
      say('Marked ' + n + ' captures of ' + r[URI] + ' ' + (as.value || 'without a decision') + '.');
    });
    var accept = el('button', 'b-accept', 'Accept the verdicts');
    accept.type = 'button';
    accept.title = 'mark every scored capture of this page as the tool decided';
    accept.addEventListener('click', function () {
      var n = 0;
      d.c.forEach(function (c, i) {
        if (c[V] === VNS || i === d.t0) { return; }
        decide(captureKey(d, c), c[V] === VOFF ? 'off-topic' : 'on-topic', captureURIM(d, r, c), r[URI], id); n++;
      });
      persist(); redraw(id);
      say('Accepted ' + n + ' verdicts of ' + r[URI] + '.');
    });
    bar.appendChild(document.createTextNode('Mark '));
    bar.appendChild(which);
    bar.appendChild(document.createTextNode(' from '));
    bar.appendChild(from);
    bar.appendChild(document.createTextNode(' to '));
    bar.appendChild(to);
    bar.appendChild(document.createTextNode(' as '));
    bar.appendChild(as);
    bar.appendChild(apply);
    bar.appendChild(accept);
    return bar;
  }
  function markRange(id, r, d, from, to, which, as) {
    if (from > to) { var x = from; from = to; to = x; }
    var n = 0;
    d.c.forEach(function (c, i) {
      if (c[TS] < from || c[TS] > to) { return; }
      if (i === d.t0 && which !== 'all+t0') { return; }
      var ck = captureKey(d, c);
      var ok = which === 'all' || which === 'all+t0' || (which === 'off' && c[V] === VOFF) || (which === 'guard' && c[V] === VGUARD) ||
        (which === 'on' && (c[V] === VON || c[V] === VGUARD)) || (which === 'undecided' && !decisions[ck]) ||
        (which === 'k' + (c[OKIND] || 0));
      if (!ok) { return; }
      decide(ck, as, captureURIM(d, r, c), r[URI], id);
      n++;
    });
    persist();
    redraw(id);
    return n;
  }
  function redraw(id) {
    list = state.sort === 'dec' || show.value === 'reviewed' ? null : list;
    var y = window.scrollY;
    render();
    window.scrollTo(0, y);
  }

  function captureTable(id, r, d) {
    var wrap = el('div', 'tablewrap caps-wrap');
    var t = el('table', 'caps');
    var hr = el('tr');
    ['Capture', 'Verdict', 'Decision'].concat(d.m || []).concat(['Reason', 'Capture text']).forEach(function (h, i) {
      hr.appendChild(el('th', i > 2 && i < 3 + (d.m || []).length ? 'num' : '', h));
    });
    var th = el('thead'); th.appendChild(hr); t.appendChild(th);
    var tb = el('tbody');
    d.c.forEach(function (c, i) {
      var tr = el('tr', 'v-' + VCLASS[c[V]] + (i === d.t0 ? ' t0' : ''));
      var urim = captureURIM(d, r, c), ck = captureKey(d, c);
      tr.setAttribute('data-ts', c[TS]);
      var w = el('td', 'when');
      var href = c[NOLINK] ? '' : httpLink(urim);
      if (href) { w.appendChild(link(href, when(c[TS]))); } else {
        w.appendChild(el('span', 'nolink d', when(c[TS])));
        w.appendChild(el('br'));
        w.appendChild(el('span', 'note', 'not linked: ' + urim));
      }
      w.appendChild(el('br'));
      w.appendChild(el('span', 'note', (c[STATUS] || 0) + ' · ' + (c[WORDS] || 0) + ' words'));
      tr.appendChild(w);
      var vt = el('td');
      if (audit) { vt.appendChild(el('span', 'v ' + A_CLASS[aud(r)[A_WHY]], A_VERDICT[aud(r)[A_WHY]])); } else {
        vt.appendChild(el('span', 'v ' + VCLASS[c[V]], c[V] === VGUARD ? 'on-topic (kept)' : VERDICT[c[V]]));
      }
      if (kindLabel(c)) { vt.appendChild(el('br')); vt.appendChild(el('span', 'kind', kindLabel(c))); }
      tr.appendChild(vt);
      var dt = el('td', 'dec');
      var cur = decisions[ck] ? decisions[ck].d : '';
      DECISIONS.forEach(function (v) {
        var b = el('button', 'mark m' + v.slice(0, 2), v === 'unsure' ? '?' : v === 'on-topic' ? 'on' : 'off');
        b.type = 'button';
        b.title = v;
        b.setAttribute('data-d', v);
        b.setAttribute('aria-pressed', String(cur === v));
        b.addEventListener('click', function () {
          state.cur = i;
          decide(ck, decisions[ck] && decisions[ck].d === v ? '' : v, urim, r[URI], id);
          persist();
          var now = decisions[ck] ? decisions[ck].d : '';
          Array.prototype.forEach.call(dt.querySelectorAll('button'), function (x) { x.setAttribute('aria-pressed', String(x.getAttribute('data-d') === now)); });
          var row = document.getElementById('row-' + id);
          if (row) { row.cells[row.cells.length - 1].textContent = decCount[id] ? String(decCount[id]) : ''; }
        });
        dt.appendChild(b);
      });
      tr.appendChild(dt);
      (d.m || []).forEach(function (m, j) {
        var s = c[SCORES] ? c[SCORES][j] : null;
        var cls = 'sc';
        if (s !== null && s !== undefined && c[MASK] && (c[MASK] & (1 << j))) { cls += c[V] === VOFF ? ' cross' : ' over'; }
        if (c[V] === VGUARD && m === 'topic') { cls += ' keep'; }
        var cell = el('td', cls, s === null || s === undefined ? '' : s.toFixed(3));
        if (cls.indexOf('over') >= 0) { cell.title = 'below the threshold, kept on-topic by the curator\'s reading'; }
        tr.appendChild(cell);
      });
      var rc = el('td', 'reason', i === d.t0 ? 't0' : c[REASON] || '');
      if (httpLink(c[SHOWN])) {
        rc.appendChild(el('br'));
        rc.appendChild(link(httpLink(c[SHOWN]), 'the capture it showed'));
      }
      tr.appendChild(rc);
      var tx = el('td', 'txt');
      if (c[TITLE]) { tx.appendChild(el('span', 'ttl', c[TITLE])); }
      if (i !== d.t0 && c[EXCERPT]) { tx.appendChild(document.createTextNode(c[EXCERPT])); }
      if (i === d.t0) { tx.appendChild(el('span', 'note', 'shown above')); }
      tr.appendChild(tx);
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    wrap.appendChild(t);
    return wrap;
  }

  // Saving and loading decisions: a CSV that evaluate --gold and prune --decisions read.
  function csvField(s) {
    s = String(s === undefined || s === null ? '' : s);
    if (/^[=+\-@\t\r]/.test(s)) { s = "'" + s; } // never a formula in a spreadsheet
    return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }
  function decisionsCSV() {
    var out = ['key,timestamp,uri_m,uri_r,curator decision'];
    Object.keys(decisions).sort().forEach(function (ck) {
      var sp = ck.lastIndexOf(' '), e = decisions[ck];
      out.push([ck.slice(0, sp), ck.slice(sp + 1), e.m, e.r, e.d].map(csvField).join(','));
    });
    return out.join('\r\n') + '\r\n';
  }
  function parseCSV(text) {
    var out = [], row = [], f = '', q = false;
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      if (q) {
        if (ch === '"') { if (text[i + 1] === '"') { f += '"'; i++; } else { q = false; } } else { f += ch; }
      } else if (ch === '"') { q = true; } else if (ch === ',') { row.push(f); f = ''; } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && text[i + 1] === '\n') { i++; }
        row.push(f); out.push(row); row = []; f = '';
      } else { f += ch; }
    }
    if (f !== '' || row.length) { row.push(f); out.push(row); }
    return out;
  }
  function unneutralise(s) { return s.length > 1 && s[0] === "'" && /[=+\-@\t\r]/.test(s[1]) ? s.slice(1) : s; }
  function loadCSV(text) {
    var recs = parseCSV(text);
    if (!recs.length) { throw new Error('empty file'); }
    var h = recs[0].map(function (x) { return x.trim().toLowerCase(); });
    var ki = h.indexOf('key'), ti = h.indexOf('timestamp'), mi = h.indexOf('uri_m'), ri = h.indexOf('uri_r'), di = h.indexOf('curator decision');
    if (ki < 0 || ti < 0 || di < 0) { throw new Error('no key, timestamp and curator decision columns'); }
    var idx = keyIndex(), n = 0;
    for (var i = 1; i < recs.length; i++) {
      var rec = recs[i];
      if (rec.length <= Math.max(ki, ti, di)) { continue; }
      var dv = unneutralise(rec[di].trim().toLowerCase());
      if (DECISIONS.indexOf(dv) < 0) { continue; }
      var key = unneutralise(rec[ki]), urir = ri >= 0 ? unneutralise(rec[ri] || '') : '';
      var id = has(idx, 'k ' + key) ? idx['k ' + key] : has(idx, 'u ' + urir) ? idx['u ' + urir] : -1;
      var ck = key + ' ' + rec[ti].trim();
      decide(ck, dv, mi >= 0 ? unneutralise(rec[mi] || '') : '', urir, id);
      // It is in the file loaded: saved, also in the browser's store (a
      // mark the file repeats changes nothing but that).
      if (unsaved[ck]) { pending[ck] = true; }
      delete unsaved[ck];
      n++;
    }
    return n;
  }
  // fileName is decisions-<collection>-<YYYYMMDD-HHMM>.csv, in local time.
  function fileName() {
    var t = new Date();
    function p2(n) { return String(n).padStart(2, '0'); }
    var stamp = t.getFullYear() + p2(t.getMonth() + 1) + p2(t.getDate()) + '-' + p2(t.getHours()) + p2(t.getMinutes());
    return 'decisions-' + (meta.name ? meta.name + '-' : '') + stamp + '.csv';
  }
  function saveFile() {
    persist();
    var n = recount(), name = fileName();
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([decisionsCSV()], { type: 'text/csv' }));
    a.download = name;
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
    // Every mark is in the file now: none is unsaved, and marks taken back
    // need no record any more.
    var keys = Object.keys(unsaved);
    unsaved = {};
    write(keys);
    recount();
    // The commands name the folder this report was opened from (its
    // results.jsonl's, as detect --report-dir and crawl audit write them).
    var dir = location.protocol === 'file:' ? decodeURIComponent(location.pathname.replace(/\/[^\/]*$/, '')) : 'RESULTS-DIR';
    if (/[^\w\/.,:@%+-]/.test(dir)) { dir = "'" + dir.replace(/'/g, "'\\''") + "'"; }
    say('', ['Saved ' + n + ' decisions as ' + name + ' (in your downloads). From there, check detection against them: ',
      'offtopic evaluate --gold ' + name + ' ' + dir, ' and act on them: ', 'offtopic prune --results ' + dir + ' --decisions ' + name, '']);
  }
  document.getElementById('save').addEventListener('click', saveFile);
  document.getElementById('load').addEventListener('change', function (e) {
    var f = e.target.files && e.target.files[0];
    if (!f) { return; }
    var rd = new FileReader();
    rd.onload = function () {
      try {
        var n = loadCSV(String(rd.result));
        persist(); list = null; render();
        say('Loaded ' + n + ' decisions from ' + f.name + '.');
      } catch (err) { say('Could not load ' + f.name + ': ' + err.message); }
    };
    rd.readAsText(f);
  });
  document.getElementById('clear-dec').addEventListener('click', function () {
    if (!window.confirm('Forget all ' + recount() + ' decisions of this report?')) { return; }
    Object.keys(decisions).concat(Object.keys(unsaved)).forEach(function (ck) { pending[ck] = true; });
    decisions = {}; unsaved = {}; persist(); list = null; render();
  });

  // Controls.
  Array.prototype.forEach.call(heads, function (th) {
    var b = th.querySelector('button');
    if (!b) { return; }
    b.addEventListener('click', function () {
      var col = th.getAttribute('data-col');
      state.dir = state.sort === col ? -state.dir : (th.getAttribute('data-first') === 'asc' ? 1 : -1);
      state.sort = col;
      state.page = 0;
      list = null;
      render();
    });
  });
  function refilter() { state.page = 0; list = null; render(); }
  filter.addEventListener('input', refilter);
  if (offkind) { offkind.addEventListener('change', refilter); }
  Array.prototype.forEach.call(document.querySelectorAll('[data-offkind]'), function (b) {
    b.addEventListener('click', function () {
      offkind.value = b.getAttribute('data-offkind');
      show.value = 'off';
      refilter();
      document.getElementById('worklist').scrollIntoView();
    });
  });
  // Marking every capture of one kind, across the collection.
  var mkApply = document.getElementById('mk-apply');
  if (mkApply) {
    mkApply.addEventListener('click', function () {
      var name = document.getElementById('mk-kind').value, as = document.getElementById('mk-as').value;
      // A capture the curator already marked otherwise keeps its mark: a
      // sweep over the collection does not undo a decision made by hand.
      var kp = kindPos(name), n = 0, pages = 0, kept = {}, nkept = 0;
      if (kp < 0) { return; }
      for (var id = 0; id < rows.length; id++) {
        var r = rows[id];
        if (!((r[OKINDS] || 0) & (1 << kp))) { continue; }
        var d = detailData(id);
        if (!d) { continue; }
        pages++;
        d.c.forEach(function (c) {
          if ((c[OKIND] || 0) !== kp + 1) { return; }
          var ck = captureKey(d, c), had = decisions[ck] ? decisions[ck].d : '';
          if (had && had !== as) { kept[had] = (kept[had] || 0) + 1; nkept++; return; }
          decide(ck, as, captureURIM(d, r, c), r[URI], id); n++;
        });
      }
      persist(); list = null; render();
      var msg = 'Marked ' + n + ' captures of kind ' + OFFKINDS[kp][1] + ' on ' + pages + ' pages ' + (as || 'without a decision') + '.';
      if (nkept) {
        msg += ' ' + nkept + ' already marked otherwise kept their marks (' + DECISIONS.filter(function (v) { return kept[v]; }).map(function (v) { return kept[v] + ' ' + v; }).join(', ') +
          '): change them on their pages.';
      }
      say(msg);
    });
  }
  show.addEventListener('change', refilter);
  prev.addEventListener('click', function () { state.page--; render(); });
  next.addEventListener('click', function () { state.page++; render(); });
  Array.prototype.forEach.call(document.querySelectorAll('[data-show]'), function (b) {
    b.addEventListener('click', function () {
      show.value = b.getAttribute('data-show');
      refilter();
      document.getElementById('worklist').scrollIntoView();
    });
  });

  // Keys, for reviewing hundreds of pages: j/k next/previous capture (on
  // to the next or previous page at either end), o/n/u mark the current
  // capture on-topic, off-topic or unsure and go on to the next, ? shows
  // the keys, Esc hides them.
  var help = document.getElementById('keys-help');
  function capRows() {
    var box = document.getElementById('open-' + state.open);
    return box ? box.querySelectorAll('.caps tbody tr') : [];
  }
  function showCurrent(noScroll) {
    var trs = capRows();
    Array.prototype.forEach.call(document.querySelectorAll('.caps tr.cur'), function (tr) { tr.classList.remove('cur'); });
    var tr = trs[state.cur];
    if (!tr) { return; }
    tr.classList.add('cur');
    if (!noScroll) { tr.scrollIntoView({ block: 'nearest' }); }
  }
  function openAt(at, last) {
    if (!list) { compute(); }
    if (at < 0 || at >= list.length) { say(at < 0 ? 'This is the first page of the list.' : 'This is the last page of the list.'); return; }
    var id = list[at], d = detailData(id);
    var n = d ? d.c.length : 0;
    state.cur = last ? n - 1 : d && d.t0 === 0 && n > 1 ? 1 : 0;
    state.curFor = id;
    if (location.hash === '#tm-' + id) { onHash(); } else { location.hash = '#tm-' + id; }
  }
  function step(by) {
    if (!list) { compute(); }
    var at = state.open >= 0 ? list.indexOf(state.open) : -1;
    if (state.open < 0 || at < 0) { openAt(by > 0 ? state.page * PAGE : Math.min(list.length, (state.page + 1) * PAGE) - 1, by < 0); return; }
    var n = capRows().length;
    if (state.cur + by >= 0 && state.cur + by < n) { state.cur += by; showCurrent(); return; }
    openAt(at + by, by < 0);
  }
  function markCurrent(v) {
    var tr = capRows()[state.cur];
    if (!tr) { say('Open a page first (j).'); return; }
    var b = tr.querySelector('button[data-d="' + v + '"]');
    if (b && b.getAttribute('aria-pressed') !== 'true') { b.click(); }
    say('Marked ' + when(tr.getAttribute('data-ts')) + ' ' + v + '.');
    step(1);
  }
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) { return; }
    var tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') { return; }
    var act = { j: function () { step(1); }, k: function () { step(-1); }, o: function () { markCurrent('on-topic'); },
      n: function () { markCurrent('off-topic'); }, u: function () { markCurrent('unsure'); },
      '?': function () { help.hidden = !help.hidden; }, Escape: function () { help.hidden = true; } }[e.key];
    if (!act) { return; }
    e.preventDefault();
    act();
  });
  document.getElementById('keys-close').addEventListener('click', function () { help.hidden = true; });

  // Following #tm-N opens that TimeMap in the list; #row-N closes it.
  function onHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    var m = /^(tm|row)-(\d+)$/.exec(h);
    if (!m) { return; }
    var id = +m[2];
    if (id >= rows.length) { return; }
    state.open = m[1] === 'tm' ? id : -1;
    if (state.curFor !== id) { state.cur = -1; } // opened otherwise than by the keys
    state.curFor = -1;
    if (!list) { compute(); }
    var at = list.indexOf(id);
    if (at < 0) {
      show.value = 'all';
      filter.value = '';
      compute();
      at = list.indexOf(id);
    }
    state.page = Math.floor(at / PAGE);
    render();
    var target = document.getElementById(m[1] === 'tm' ? 'open-' + id : 'row-' + id);
    var row = document.getElementById('row-' + id);
    if (row) {
      var rc = row.getBoundingClientRect();
      if (rc.top < 0 || rc.bottom > window.innerHeight) { row.scrollIntoView(); }
    }
    if (target && m[1] === 'row') { target.focus && target.focus(); }
    if (m[1] === 'tm' && state.cur >= 0) { showCurrent(); }
  }
  window.addEventListener('hashchange', onHash);
  var waiting = -1;
  document.addEventListener('DOMContentLoaded', function () {
    if (waiting >= 0 && waiting === state.open) { redraw(waiting); }
    waiting = -1;
  });
  if (/^#(tm|row)-\d+$/.test(location.hash)) { onHash(); } else { render(); }
  restore(function () { redraw(state.open); });
  if (window.performance && performance.mark) { performance.mark('offtopic-worklist'); }
}());
