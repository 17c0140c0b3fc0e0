#!/usr/bin/env python3
"""Checks a collection written by gen.py (reads only its files; imports nothing of the generator).

    check.py DIR [--base DIR]

- every .warc.gz is one gzip member per record, each a WARC/1.0 record whose Content-Length, block digest
  and payload digest hold, HTTP responses parse (chunked and gzip bodies decoded), revisits point at a
  response written earlier with the same payload digest;
- gold.tsv and scenarios.tsv have the same rows in the same order, labels agree, kinds are from the fixed
  vocabulary (set on label-0 rows only), every row has its capture in the WARCs (a 200 text/html response
  or a revisit; a 301/302 for the rows of redirecting seeds), (TimeMap id, date) and (URI, date) are unique;
- every 301/302 of a redirect-* seed and every frameset of a frames seed has its target captured 1-90 s
  later (following a chain of redirects to a 200 text/html); redirect-away targets are on another host;
- drift seeds lose at most one original story per capture and stay on the new subject for >= 3 captures;
- jsapp pages show almost no text but their inline JSON parses and holds the article; parked-topical
  seeds parked at t0 are parked for 1-2 captures, then on-topic;
- injected pages carry 3-10x as many words of spam as of what is left of the article;
- with --base (gen_collection.py's collection of the same seed and scale): the rows of seeds without a
  phenomenon are the generator's rows, unchanged.
Prints counts per scenario and kind, and exits 1 on any failure.
"""
import argparse, base64, collections, datetime as dt, glob, gzip, hashlib, html, os, re, sys, zlib

KINDS = {'parked', 'suspended', 'error', 'not-found', 'maintenance', 'login', 'blank', 'spam', 'redirected',
         'replaced', 'drifted'}
problems = []


def bad(msg):
    problems.append(msg)


def b32(b):
    return 'sha1:' + base64.b32encode(hashlib.sha1(b).digest()).decode()


def members(path):
    data, pos = open(path, 'rb').read(), 0
    while pos < len(data):
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out = d.decompress(data[pos:]) + d.flush()
        if not d.eof:
            raise ValueError('%s: truncated gzip member at %d' % (path, pos))
        pos = len(data) - len(d.unused_data)
        yield out


def parse_record(raw, path):
    head, _, rest = raw.partition(b'\r\n\r\n')
    lines = head.decode('utf-8').split('\r\n')
    if lines[0] != 'WARC/1.0':
        raise ValueError('%s: not a WARC/1.0 record' % path)
    h = dict(l.split(': ', 1) for l in lines[1:])
    n = int(h['Content-Length'])
    block, tail = rest[:n], rest[n:]
    if tail != b'\r\n\r\n':
        raise ValueError('%s: record %s: bad length or trailer' % (path, h.get('WARC-Record-ID')))
    return h, block


def http_body(block):
    head, _, body = block.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    status = int(lines[0].split()[1])
    hh = {}
    for l in lines[1:]:
        k, v = l.split(': ', 1)
        hh[k.lower()] = v
    payload = body
    if hh.get('transfer-encoding') == 'chunked':
        out, p = b'', 0
        while True:
            eol = body.index(b'\r\n', p)
            size = int(body[p:eol], 16)
            if size == 0:
                break
            out += body[eol + 2:eol + 2 + size]
            p = eol + 2 + size + 2
        body = out
    elif 'content-length' in hh and int(hh['content-length']) != len(body):
        raise ValueError('content-length mismatch')
    if hh.get('content-encoding') == 'gzip':
        body = gzip.decompress(body)
    return status, hh, payload, body


def decode(body, hh):
    m = re.search(r'charset=([\w-]+)', hh.get('content-type', '')) or re.search(rb'<meta charset="([\w-]+)"', body[:2000])
    cs = m.group(1) if m else 'utf-8'
    cs = cs.decode() if isinstance(cs, bytes) else cs
    return body.decode({'iso-8859-1': 'latin-1', 'windows-1252': 'cp1252'}.get(cs.lower(), cs), 'replace')


def read_warcs(d):
    caps = {}  # (URI, datetime) -> dict(status, ctype, location, html)
    digests = {}
    for path in sorted(glob.glob(os.path.join(d, '*.warc.gz'))):
        for raw in members(path):
            h, block = parse_record(raw, path)
            if h.get('WARC-Block-Digest') and b32(block) != h['WARC-Block-Digest']:
                bad('%s: block digest of %s' % (path, h['WARC-Record-ID']))
            t = h['WARC-Type']
            if t not in ('response', 'revisit'):
                continue
            u, when = h['WARC-Target-URI'], dt.datetime.strptime(h['WARC-Date'], '%Y-%m-%dT%H:%M:%SZ')
            if (u, when) in caps:
                bad('two captures of %s at %s' % (u, when))
            if t == 'response':
                status, hh, payload, body = http_body(block)
                if b32(payload) != h['WARC-Payload-Digest']:
                    bad('payload digest of %s %s' % (u, when))
                digests[(u, when)] = h['WARC-Payload-Digest']
                ct = hh.get('content-type', '').split(';')[0]
                caps[(u, when)] = {'status': status, 'ctype': ct, 'loc': hh.get('location'),
                                   'html': decode(body, hh) if ct == 'text/html' else ''}
            else:
                ref = (h['WARC-Refers-To-Target-URI'], dt.datetime.strptime(h['WARC-Refers-To-Date'], '%Y-%m-%dT%H:%M:%SZ'))
                if digests.get(ref) != h['WARC-Payload-Digest']:
                    bad('revisit %s %s: no earlier response %s with its digest' % (u, when, ref))
                    continue
                caps[(u, when)] = dict(caps[ref], revisit=True)
    return caps


def text(h):
    h = re.sub(r'(?is)<(script|style|noscript)\b.*?</\1>', ' ', h)
    return html.unescape(re.sub(r'<[^>]+>', ' ', h))


def app_words(h):
    """Words in the string values of a page's inline JSON (Next.js data, window.__INITIAL_STATE__,
    window.__NUXT__ as JSON or as a function of its values, JSON-LD); each must parse."""
    import json
    found = []
    for m in re.finditer(r'<script id="__NEXT_DATA__" type="application/json">(.*?)</script>', h, re.S):
        found.append(json.loads(m.group(1)))
    for m in re.finditer(r'<script type="application/ld\+json">(.*?)</script>', h, re.S):
        found.append(json.loads(m.group(1)))
    for m in re.finditer(r'window\.(?:__INITIAL_STATE__ = |__NUXT__=)(.*?);</script>', h, re.S):
        js = m.group(1)
        if js.startswith('(function'):  # Nuxt's function of its values: its arguments parse as JSON;
            found.append(json.loads('[' + js[js.rindex('}(') + 2:-2] + ']'))  # the strings of its body count
            found += [json.loads('"%s"' % x) for x in re.findall(r'"((?:[^"\\]|\\.)*)"', js[:js.rindex('}(')])]
        else:
            found.append(json.loads(js))
    n = 0

    def walk(o):
        nonlocal n
        if isinstance(o, str):
            n += len(text(o).split()) if ' ' in o else 0
        elif isinstance(o, dict):
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(found)
    return n


def canon(u):
    return re.sub(r'^https?://(www\.)?', '', u)


def follow(caps, u, t0, by_uri):
    """The 200 text/html capture that a 3xx at t0 leads to within 90 s (following 3xx), or None."""
    when = t0
    for _ in range(4):
        nxt = [t for t in by_uri.get(u, ()) if when < t <= t0 + dt.timedelta(seconds=90)]
        if not nxt:
            return None
        c = caps[(u, nxt[0])]
        if c['status'] == 200 and c['ctype'] == 'text/html':
            return u, nxt[0], c
        if c['status'] in (301, 302) and c['loc']:
            u, when = c['loc'], nxt[0]
        else:
            return None
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir')
    ap.add_argument('--base', help="gen_collection.py's collection of the same --seed and --scale")
    a = ap.parse_args()
    caps = read_warcs(a.dir)
    by_uri = collections.defaultdict(list)
    for u, t in caps:
        by_uri[u].append(t)
    for v in by_uri.values():
        v.sort()
    gold = [l.rstrip('\n').split('\t') for l in open(os.path.join(a.dir, 'gold.tsv'))]
    scen = [l.rstrip('\n').split('\t') for l in open(os.path.join(a.dir, 'scenarios.tsv'))]
    if gold[0] != ['id', 'date', 'URI', 'label'] or scen[0] != ['URI', 'label', 'scenario', 'seed', 'kind']:
        bad('headers: %s / %s' % (gold[0], scen[0]))
    gold, scen = gold[1:], scen[1:]
    if len(gold) != len(scen):
        bad('gold.tsv has %d rows, scenarios.tsv %d' % (len(gold), len(scen)))
    seen_id, rows = set(), collections.defaultdict(list)
    seeds = open(os.path.join(a.dir, 'seeds.txt')).read().split()
    for g, s in zip(gold, scen):
        if len(s) != 5 or g[2] != s[0] or g[3] != s[1]:
            bad('row mismatch: %s / %s' % (g, s))
            continue
        if (g[0], g[1]) in seen_id:
            bad('two rows of seed %s at %s' % (g[0], g[1]))
        seen_id.add((g[0], g[1]))
        if (s[1] == '0') != (s[4] != '') or (s[4] and s[4] not in KINDS):
            bad('kind %r on a row labelled %s' % (s[4], s[1]))
        m = re.match(r'http://archive\.example\.org/(\d+)/(\d{14})/(.*)$', g[2])
        when = dt.datetime.strptime(g[1], '%Y%m%d%H%M%S')
        u = m.group(3)
        if m.group(2) != g[1] or canon(u).split('/')[0] != canon(seeds[int(g[0]) - 1]).split('/')[0]:
            bad('URI-M %s does not match date or seed' % g[2])
        c = caps.get((u, when))
        if c is None:
            bad('no capture for row %s' % g[2])
            continue
        ok = (c['status'] == 200 and c['ctype'] == 'text/html') or (c['status'] in (301, 302) and s[2].startswith('redirect'))
        if not ok:
            bad('row %s is a %s %s capture' % (g[2], c['status'], c['ctype']))
        rows[int(g[0])].append(dict(when=when, u=u, label=int(s[1]), scen=s[2], seed=s[3], kind=s[4], cap=c))

    # phenomena
    stat = collections.Counter()
    for tid, rs in rows.items():
        ph = rs[0]['seed'][5:] if rs[0]['seed'].startswith('phen:') else None
        if not ph:
            continue
        stat['seeds ' + ph] += 1
        for r in rs:
            c = r['cap']
            if r['scen'] in ('redirect-away', 'redirect-same') and c['status'] in (301, 302):
                got = follow(caps, c['loc'], r['when'], by_uri)
                if not got:
                    bad('%s %s: no target of %s within 90 s' % (r['u'], r['when'], c['loc']))
                    continue
                stat['targets ' + ph] += 1
                away = canon(got[0]).split('/')[0] != canon(r['u']).split('/')[0]
                if (r['scen'] == 'redirect-away') != away:
                    bad('%s: redirect target %s on the wrong host' % (r['u'], got[0]))
                if r['scen'] == 'redirect-same' and canon(got[0]) == canon(r['u']):
                    if not any(x['u'] == got[0] and x['when'] == got[1] for x in rs):
                        bad('%s: same-page target %s %s has no gold row' % (r['u'], got[0], got[1]))
            if r['scen'] == 'frames' and c['status'] == 200 and '://' in r['u']:
                m = re.search(r'<i?frame src="([^"]+)"', c['html'])
                if not m:
                    bad('%s %s: no frame' % (r['u'], r['when']))
                    continue
                got = follow(caps, html.unescape(m.group(1)), r['when'] - dt.timedelta(seconds=0), by_uri)
                if not got or canon(got[0]).split('/')[0] == canon(r['u']).split('/')[0]:
                    bad('%s %s: framed page %s not captured within 90 s' % (r['u'], r['when'], m.group(1)))
                else:
                    stat['targets ' + ph] += 1
                    if len(text(c['html']).split()) > 40:
                        bad('%s: frameset with %d words' % (r['u'], len(text(c['html']).split())))
        if ph == 'drift':
            titles = lambda h: re.findall(r'<div class="item"><h2><a href="[^"]*">(.*?)</a>', h)
            orig = set(titles(rs[0]['cap']['html']))
            counts = [len(orig & set(titles(r['cap']['html']))) for r in rs]
            labels = [r['label'] for r in rs]
            if any(b < a - 1 for a, b in zip(counts, counts[1:])) or any(b > a for a, b in zip(counts, counts[1:])):
                bad('drift seed %d: original stories per capture %s' % (tid, counts))
            if labels != [1 if k else 0 for k in counts]:
                bad('drift seed %d: labels %s for original stories %s' % (tid, labels, counts))
            if labels.count(0) < 3 or labels[labels.index(0):].count(1):
                bad('drift seed %d: labels %s' % (tid, labels))
            stat['drift captures after the last original story (min)'] = min(
                stat.get('drift captures after the last original story (min)', 999), labels.count(0))
        if ph == 'jsapp':
            for r in rs:
                if r['scen'] == 'jsapp':
                    words = app_words(r['cap']['html'])
                    stat['jsapp words in JSON (min)'] = min(stat.get('jsapp words in JSON (min)', 10 ** 9), words)
                    if words < 30 or len(text(r['cap']['html']).split()) > 40:
                        bad('jsapp page %s %s: %d words in its JSON, %d visible' % (
                            r['u'], r['when'], words, len(text(r['cap']['html']).split())))
        if ph == 'parked-topical' and rs[0]['scen'] == 'parked-topical':
            labels = [r['label'] for r in rs]
            first_on = labels.index(1) if 1 in labels else len(labels)
            stat['parked-topical seeds parked at t0'] += 1
            if not 1 <= first_on <= 2 or 0 in labels[first_on:]:
                bad('parked-topical seed %d parked at t0: labels %s' % (tid, labels))
        if ph == 'injected':
            for r in rs:
                if r['scen'] != 'injected':
                    continue
                h = r['cap']['html']
                m = re.search(r'<div class="story"><h1>(.*?)</h1><p class="byline">.*?</p><p>(.*?)</p>(.*?)</div><(/td|/div|/main|div id="sidebar"|aside)', h, re.S)
                if not m:
                    bad('injected page %s: no article' % r['u'])
                    continue
                orig = len(text(m.group(1) + ' ' + m.group(2)).split())
                spam = len(text(m.group(3)).split())
                ratio = spam / orig
                stat['injected ratio min x10'] = min(stat.get('injected ratio min x10', 999), int(ratio * 10))
                stat['injected ratio max x10'] = max(stat.get('injected ratio max x10', 0), int(ratio * 10))
                if not 3 <= ratio <= 10.5:
                    bad('injected page %s %s: spam/original words %.1f' % (r['u'], r['when'], ratio))
    if a.base:
        bg = [l.rstrip('\n').split('\t') for l in open(os.path.join(a.base, 'gold.tsv'))][1:]
        bs = [l.rstrip('\n').split('\t') for l in open(os.path.join(a.base, 'scenarios.tsv'))][1:]
        phen_ids = {str(t) for t, rs in rows.items() if rs[0]['seed'].startswith('phen:')}
        mine = [(g, s[:4]) for g, s in zip(gold, scen) if g[0] not in phen_ids]
        theirs = [(g, s) for g, s in zip(bg, bs) if g[0] not in phen_ids]
        if mine != theirs:
            bad('rows of ordinary seeds differ from --base (%d vs %d rows)' % (len(mine), len(theirs)))
        else:
            stat['ordinary rows identical to base'] = len(mine)
        if open(os.path.join(a.base, 'seeds.txt')).read() != open(os.path.join(a.dir, 'seeds.txt')).read():
            bad('seeds.txt differs from --base')
    print('captures %d, rows %d, seeds %d' % (len(caps), len(gold), len(rows)))
    for k, v in sorted(stat.items()):
        print('  %s: %s' % (k, v))
    print('  rows by scenario/label/kind:')
    for k, v in sorted(collections.Counter((s[2], s[1], s[4]) for s in scen).items()):
        print('    %-16s %s %-12s %d' % (k + (v,)))
    for p in problems[:40]:
        print('PROBLEM', p)
    print('%d problems' % len(problems))
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
