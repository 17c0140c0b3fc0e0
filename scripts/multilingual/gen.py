#!/usr/bin/env python3
"""Labelled off-topic collections in any language, made by gen_collection.py from another article pool.

    gen.py --articles FILE.jsonl --out DIR [--seed N] [--scale F] [--cats A,B,C] [--lang xx] [--shared DIR]

Imports ../shared/tools/gen_collection.py as a module (it is neither copied nor changed), replaces what in it
is English-only or BBC-specific, then calls its build(): the output (WARCs, gold.tsv, scenarios.tsv,
seeds.txt, STATS.md) is what gen_collection.py writes, with the text of FILE.jsonl (one article a line:
{"id", "cat", "title", "paras"}, as corpora.py writes them) in place of the BBC articles. Site templates,
navigation, ads and the wording of the off-topic pages stay as the generator has them (English chrome
around foreign text, as on many parked and error pages). All randomness still comes from the generator's
one seeded random.Random: the same arguments give the same bytes.

What is replaced, and why:
- load_articles(): reads FILE.jsonl instead of data/bbc-dev.jsonl.gz.
- words(), the tokenizer behind story threads: the generator's keeps ASCII runs [a-z][a-z'-]+ minus an
  English stop list, so text in other scripts kept only its stray Latin-letter words (names, brands;
  none in SIB-200) and threads formed from those or not at all (build() fails); in Latin scripts it cut
  words at every accent ("été" -> "t"). Here: NFKC, lower case, runs of letters, marks
  and digits (Python's \\w alone splits Indic words at their vowel signs), runs of Chinese, Japanese,
  Korean, Thai, Lao, Khmer and Myanmar letters turned into overlapping character bigrams; tokens of one
  character and tokens without a letter dropped; the stop list is the tokens found in more than a
  quarter of the pool's articles (on the BBC pool that list is mostly the generator's English one).
- threads(): its cosine threshold (0.12, set for English BBC news) is calibrated per pool, so that as
  many articles lead a story thread as on the BBC pool; without it no thread formed in most pools of
  other languages and build() failed (see calibrated()).
- SETTINGS['cats']: three categories of the pool (--cats; default its three largest) with the seed
  counts of the generator (110, 100, 90 at scale 1), under its collection ids 3001-3003.
- <html lang="en"> of the site template: the language of the text (--lang), as a site in that language
  declares it; the chrome is unchanged otherwise.
- The URI path of article seeds, /news/<slug>.html, where the slug is the title's [a-z0-9] runs: accents
  are folded first ("é" -> "e", not dropped), and a title not written mostly in Latin letters (which
  left an empty or meaningless slug: "/news/.html") gets a number instead, as such sites use
  ("/news/48213.html"). This goes through a stand-in for the module's `re` that answers only that one
  re.sub() call differently; URIs stay ASCII (the generator writes them into latin-1 HTTP headers).
Nothing else in the generator depends on English: the other filters count paragraphs (at least three),
not words, and text is escaped and encoded (UTF-8, or latin-1/cp1252 with numeric character references
for what those charsets lack) without regard to language.
"""
import argparse, functools, json, os, re, sys, time, unicodedata
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SHARED = os.path.normpath(os.path.join(HERE, '..', '..', '..', 'shared'))  # ../shared beside the repo
SEEDS = (110, 100, 90)  # gen_collection.py's seeds per collection at scale 1
STOP_SHARE = 0.25       # tokens in more than this share of the articles are stop words
THRESHOLD = 0.12        # the cosine threshold of gen_collection.threads()
THREAD_SHARE = 308 / 668  # share of the BBC pool's articles that lead a thread at that threshold
PROBES = 150            # articles of a pool whose neighbours estimate its threshold


# ---------------------------------------------------------------- tokenizer

def _char_class(pred):
    """A regex character class of every code point c with pred(c), as ranges."""
    ranges, start = [], None
    for cp in range(sys.maxunicode + 2):
        ok = cp <= sys.maxunicode and pred(chr(cp))
        if ok and start is None:
            start = cp
        elif not ok and start is not None:
            ranges.append((start, cp - 1))
            start = None
    return ''.join(re.escape(chr(a)) if a == b else '%s-%s' % (re.escape(chr(a)), re.escape(chr(b)))
                   for a, b in ranges)


# letters, combining marks (Indic vowel signs and viramas, Thai vowels and tones) and digits
WORD = re.compile('[%s]+' % _char_class(lambda c: unicodedata.category(c)[0] in 'LMN'))
# scripts written without spaces between words (and Hangul, whose words carry their particles): bigrams
DENSE = ('\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff'                      # Thai, Lao, Myanmar, Khmer
         '\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff'         # Hangul
         '\u3005-\u3007\u3040-\u30ff\u31f0-\u31ff'                      # kana, 々 〆 〇
         '\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f')  # Han
PARTS = re.compile('([%s]+)|[^%s]+' % (DENSE, DENSE))


@functools.lru_cache(maxsize=None)
def tokens(text):
    """All tokens of a text, stop words included (a tuple; cached, as the generator reads each article
    several times)."""
    out = []
    for run in WORD.findall(unicodedata.normalize('NFKC', text).lower()):
        for m in PARTS.finditer(run):
            part = m.group()
            if m.group(1):
                out += [part[i:i + 2] for i in range(len(part) - 1)]
            elif len(part) > 1 and any(c.isalpha() for c in part):
                out.append(part)
    return tuple(out)


def make_words(arts):
    """A words() for the generator: tokens() minus the pool's stop words."""
    df = Counter()
    for a in arts:
        df.update(set(tokens(a['title'] + ' ' + ' '.join(a['paras']))))
    stop = {w for w, c in df.items() if c > STOP_SHARE * len(arts)}

    def words(text):
        return [w for w in tokens(text) if w not in stop]
    return words, stop


# ---------------------------------------------------------------- URI slugs

def slug_of(title, number):
    """The slug of gen_collection.py (runs of [a-z0-9] of the lower-cased title, joined by '-'), with
    accents folded; a number where the title is not mostly Latin letters."""
    letters = [c for c in title if c.isalpha()]
    folded = ''.join(c for c in unicodedata.normalize('NFKD', title.lower()) if not unicodedata.combining(c))
    ascii_letters = sum(1 for c in folded if 'a' <= c <= 'z')
    if letters and ascii_letters >= 0.5 * len(letters):
        return re.sub(r'[^a-z0-9]+', '-', folded)
    return str(number)


class SlugRe:
    """Stands in for the `re` module inside gen_collection: its one slug call
    (re.sub(r'[^a-z0-9]+', '-', title.lower())) gets slug_of(); every other use goes to `re`."""

    def __init__(self, number):
        self.number = number

    def __getattr__(self, name):
        return getattr(re, name)

    def sub(self, pattern, repl, string, *args, **kw):
        if pattern == r'[^a-z0-9]+' and repl == '-' and not args and not kw:
            return slug_of(string, self.number(string))
        return re.sub(pattern, repl, string, *args, **kw)


# ---------------------------------------------------------------- wiring

def load(path):
    with open(path, encoding='utf-8') as f:
        arts = [json.loads(line) for line in f if line.strip()]
    for a in arts:
        if not (isinstance(a.get('id'), str) and a.get('cat') and a.get('title') and isinstance(a.get('paras'), list)):
            raise SystemExit(('%s: every line needs "id" (a string), "cat", "title" and "paras": %r' % (path, a))[:300])
    return arts


def install(G, arts, cats, lang, tokenizer=True):
    """Points gen_collection (the module G) at arts: the replacements listed in this file's docstring."""
    pool = [a for a in arts if len(a['paras']) >= 3]  # what build() keeps
    G.load_articles = lambda: arts
    if tokenizer:
        G.words, _ = make_words(pool)
    G.SETTINGS['cats'] = [(str(3001 + i), c, n) for i, (c, n) in enumerate(zip(cats, SEEDS))]
    G.re = SlugRe(G.h5)
    page = G.page
    if lang != 'en':
        G.page = lambda *a, **k: page(*a, **k).replace('<html lang="en">', '<html lang="%s">' % lang, 1)
    G.threads = calibrated(G, G.threads, G.cos)


def calibrated(G, threads, cos):
    """threads() with its similarity threshold calibrated to the pool. threads() makes a thread of an
    article and its nearest neighbours when at least two have cosine >= 0.12, a figure that suits English
    BBC news (46% of its articles lead a thread: 308 of 668). Text of other languages and corpora has
    lower similarities (inflected words share fewer tokens; SIB-200 pseudo-articles are not stories),
    and in most pools no thread formed, so build() failed. Here the similarities that threads() sees
    are scaled by 0.12 / tau, where tau is the threshold at which 46% of the pool's articles would lead
    a thread (never scaled down: where threads form as readily as on the BBC pool nothing changes).
    Scaling keeps the order of neighbours, so threads are the same nearest neighbours, taken down to
    tau instead of 0.12. tau is estimated from up to PROBES articles of the pool. No randomness is
    drawn here."""
    def wrapped(arts, rng, want):
        vecs, n = G.tfidf(arts), len(arts)
        probes = sorted({k * n // PROBES for k in range(PROBES)})  # evenly spread; all in small pools
        second = sorted(sorted((cos(vecs[i], vecs[j]) for j in range(n) if j != i), reverse=True)[1]
                        for i in probes) if n >= 3 else [0]
        tau = second[min(len(second) - 1, int(len(second) * (1 - THREAD_SHARE)))]
        if tau <= 0:
            raise SystemExit('no story thread can form in a pool of %d articles (%s): too few or sharing no words'
                             % (len(arts), Counter(a['cat'] for a in arts).most_common(3)))
        scale = max(1.0, THRESHOLD / tau)
        print('  threads: pool of %d articles, threshold %.3f (similarities x%.2f)' % (n, min(tau, THRESHOLD), scale),
              file=sys.stderr)
        G.cos = lambda a, b: scale * cos(a, b)
        try:
            return threads(arts, rng, want)
        finally:
            G.cos = cos
    return wrapped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--articles', required=True, help='JSON-lines file of articles (id, cat, title, paras)')
    ap.add_argument('--out', required=True, help='output folder (created if missing; write into an empty one)')
    ap.add_argument('--seed', type=int, default=None, help='random seed (default: the generator\'s, 20151)')
    ap.add_argument('--scale', type=float, default=1.0, help='seeds per collection: 110, 100, 90 times F')
    ap.add_argument('--cats', help='three categories, comma-separated, most seeds first (default: the three largest)')
    ap.add_argument('--lang', help='language of the text, for <html lang> (default: the file name, e.g. fr.jsonl: fr)')
    ap.add_argument('--shared', default=DEFAULT_SHARED, help='the shared folder holding tools/gen_collection.py '
                    '(default: ../shared beside the repository, %(default)s)')
    a = ap.parse_args()

    sys.path.insert(0, os.path.join(os.path.abspath(a.shared), 'tools'))
    sys.dont_write_bytecode = True  # no __pycache__ in the shared folder
    import gen_collection as G

    arts = load(a.articles)
    count = Counter(x['cat'] for x in arts if len(x['paras']) >= 3)
    cats = a.cats.split(',') if a.cats else [c for c, _ in sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))[:3]]
    if len(cats) != 3 or any(count[c] < 3 for c in cats):
        ap.error('need three categories with articles; the file has %s' % dict(count))
    lang = a.lang or os.path.basename(a.articles).split('.')[0]
    install(G, arts, cats, lang)
    seed = G.DEFAULT_SEED if a.seed is None else a.seed

    t = time.time()
    stats = G.build(a.out, seed, a.scale)
    print(' '.join('%s=%d' % (k.replace(' ', '_'), v) for k, v in sorted(stats.items())))
    print('%s: %d articles, collections %s, %.1f s' % (
        lang, sum(count.values()), ', '.join('%s=%s (%d articles)' % (c[0], c[1], count[c[1]])
                                            for c in G.SETTINGS['cats']), time.time() - t), file=sys.stderr)


if __name__ == '__main__':
    main()
