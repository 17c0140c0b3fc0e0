(function () {
  'use strict';
  var table = document.getElementById('tms');
  if (!table) { return; }
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var heads = table.tHead.rows[0].cells;
  var filter = document.getElementById('filter');
  var onlyOff = document.getElementById('only-off');
  var shown = document.getElementById('shown');
  var sortCol = -1;
  var sortDir = 1;
  Array.prototype.forEach.call(heads, function (th, i) {
    var s = th.getAttribute('aria-sort');
    if (s === 'ascending' || s === 'descending') {
      sortCol = i;
      sortDir = s === 'ascending' ? 1 : -1;
    }
  });

  function key(row, col) {
    var cell = row.cells[col];
    var v = cell.getAttribute('data-v');
    if (v !== null) { return parseFloat(v); }
    return cell.textContent.toLowerCase();
  }

  function sortBy(col) {
    var first = heads[col].getAttribute('data-first');
    var dir = sortCol === col ? -sortDir : (first === 'asc' ? 1 : -1);
    sortCol = col;
    sortDir = dir;
    var keyed = rows.map(function (r, i) { return [key(r, col), i, r]; });
    keyed.sort(function (a, b) {
      if (a[0] < b[0]) { return -dir; }
      if (a[0] > b[0]) { return dir; }
      return a[1] - b[1];
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k[2]); });
    tbody.appendChild(frag);
    for (var i = 0; i < heads.length; i++) {
      heads[i].setAttribute('aria-sort', i === col ? (dir > 0 ? 'ascending' : 'descending') : 'none');
    }
  }

  function applyFilter() {
    var q = filter.value.trim().toLowerCase();
    var only = onlyOff.checked;
    var n = 0;
    rows.forEach(function (r) {
      var ok = (q === '' || r.getAttribute('data-u').indexOf(q) >= 0) &&
        (!only || r.getAttribute('data-off') !== '0');
      r.hidden = !ok;
      if (ok) { n++; }
    });
    shown.textContent = String(n);
  }

  Array.prototype.forEach.call(heads, function (th, i) {
    var b = th.querySelector('button');
    if (b) { b.addEventListener('click', function () { sortBy(i); }); }
  });
  filter.addEventListener('input', applyFilter);
  onlyOff.addEventListener('change', applyFilter);

  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var el = document.getElementById(id);
    if (el && el.tagName === 'DETAILS') {
      el.open = true;
      el.scrollIntoView();
    }
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  document.getElementById('expand-off').addEventListener('click', function () {
    Array.prototype.forEach.call(document.querySelectorAll('details.tm.hasoff'), function (d) { d.open = true; });
  });
  document.getElementById('collapse-all').addEventListener('click', function () {
    Array.prototype.forEach.call(document.querySelectorAll('details.tm'), function (d) { d.open = false; });
  });
  applyFilter();
}());
