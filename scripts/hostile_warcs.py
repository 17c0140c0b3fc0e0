#!/usr/bin/env python3
"""hostile_warcs.py OUTDIR: WARCs of pages that test what detection holds in memory (scripts/bench memory).

- cjk.warc.gz: 16 pages of 10 MiB of Chinese text without spaces (one sentence repeated).
- framesets.warc.gz: 300 framesets of 16 frames of some 64 KiB of words each, every frame captured.
- hex.warc.gz: 50 pages of 1 MiB of distinct hexadecimal tokens.

Deterministic (seeded); each file is written once and left when present.
"""
import gzip
import os
import random
import sys

def record(out, n, uri, date, body):
    http = b'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n' % len(body) + body
    head = ('WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n'
            'WARC-Date: %s\r\nWARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\n'
            'Content-Length: %d\r\n\r\n' % (n, date, uri, len(http))).encode()
    out.write(gzip.compress(head + http + b'\r\n\r\n', 6))

def cjk(path):
    phrase = '中华人民共和国是世界上人口最多的国家之一，历史悠久，文化灿烂。'
    with open(path, 'wb') as out:
        for i in range(16):
            text = phrase * (10 * 1024 * 1024 // (len(phrase) * 3))
            record(out, i, 'http://cjk.example/p%d' % i, '2010-01-%02dT00:00:00Z' % (i + 1),
                   ('<html><head><title>p%d</title></head><body><p>%s</p></body></html>' % (i, text)).encode())

def framesets(path):
    rng = random.Random(2)
    words = ['w%04d' % i for i in range(5000)]
    n = 0
    with open(path, 'wb') as out:
        for s in range(300):
            frames = ''.join('<frame src="http://site%d.example/f%d.html">' % (s, f) for f in range(16))
            record(out, n, 'http://site%d.example/' % s, '2010-01-01T00:00:00Z',
                   ('<html><frameset cols="*">%s</frameset></html>' % frames).encode())
            n += 1
            for f in range(16):
                text = ' '.join(rng.choice(words) for _ in range(11000))
                record(out, n, 'http://site%d.example/f%d.html' % (s, f), '2010-01-01T00:00:01Z',
                       ('<html><body><p>%s</p></body></html>' % text).encode())
                n += 1

def hexpages(path):
    rng = random.Random(3)
    with open(path, 'wb') as out:
        for i in range(50):
            digits = '%x' % rng.getrandbits(8 * 1024 * 1024 // 2 * 4)
            text = ' '.join(digits[j:j + 10] for j in range(0, 1024 * 1024 - 10, 11))
            record(out, i, 'http://h%d.example/' % i, '2010-01-01T00:00:00Z',
                   ('<html><body><p>%s</p></body></html>' % text).encode())

def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name, make in (('cjk', cjk), ('framesets', framesets), ('hex', hexpages)):
        path = os.path.join(outdir, name + '.warc.gz')
        if not os.path.exists(path):
            make(path + '.tmp')
            os.replace(path + '.tmp', path)

if __name__ == '__main__':
    main()
