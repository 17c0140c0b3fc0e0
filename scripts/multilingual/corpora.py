#!/usr/bin/env python3
"""Convert topic-labelled corpora in other languages to the article format of gen_collection.py.

    corpora.py [--mirrors DIR] [--out DIR] [--max-per-cat N] [LANG ...]   convert (all languages by default)
    corpora.py --out DIR --cats LANG                                      print LANG's three categories

Each language becomes one JSON-lines file, OUT/<lang>.jsonl, one article a line with the fields that
gen_collection.py reads: {"id", "cat", "title", "paras"} (every article has at least three paragraphs),
plus OUT/<lang>.meta.json: the source used, its licence, the three categories to build collections
from and the number of articles by category.

The corpora are bare git mirrors (no work tree) under --mirrors, read with `git show HEAD:<path>` and
`git ls-tree` only. The text they hold stays outside the repository: write --out somewhere else
(default /tmp/ml/articles).

Sources: MasakhaNEWS (fr, am), 10kGNAD (de), Livedoor news corpus (ja), THUCNews sample (zh), SIB-200
(the others). SIB-200 has topic-labelled sentences, not articles: runs of 6-9 consecutive sentences
of one category become a pseudo-article. When a source fails (a file missing from its mirror, too few
articles), the language falls back to its SIB-200 sentences and says so on stderr.

Python 3.11, standard library only. Output depends only on the mirrors' contents.
"""
import argparse, csv, io, json, os, random, re, subprocess, sys, zlib
from collections import Counter, defaultdict

# The languages: family, source (a converter below and its argument), the three categories
# (most seeds first, as gen_collection.py gives its first collection 110 seeds, then 100 and 90),
# and the SIB-200 language to fall back to.
SIB_CATS = ['science/technology', 'travel', 'politics']  # SIB-200's three largest categories
LANGS = {
    'fr': ('Latin', 'masakhanews', 'fra', ['politics', 'business', 'health'], 'fra_Latn'),
    'de': ('Latin', 'gnad10k', None, ['International', 'Wirtschaft', 'Web'], 'deu_Latn'),
    'es': ('Latin', 'sib200', 'spa_Latn', SIB_CATS, None),
    'hu': ('Latin', 'sib200', 'hun_Latn', SIB_CATS, None),
    'ru': ('Cyrillic', 'sib200', 'rus_Cyrl', SIB_CATS, None),
    'ar': ('Arabic', 'sib200', 'arb_Arab', SIB_CATS, None),
    'fa': ('Arabic', 'sib200', 'pes_Arab', SIB_CATS, None),
    'ja': ('CJK', 'livedoor', None, ['topic-news', 'sports-watch', 'it-life-hack'], 'jpn_Jpan'),
    'zh': ('CJK', 'thucnews', None, ['时政', '财经', '科技'], 'zho_Hans'),
    'ko': ('CJK', 'sib200', 'kor_Hang', SIB_CATS, None),
    'am': ('Ethiopic', 'masakhanews', 'amh', ['politics', 'business', 'health'], 'amh_Ethi'),
    'hi': ('Indic', 'sib200', 'hin_Deva', SIB_CATS, None),
    'bn': ('Indic', 'sib200', 'ben_Beng', SIB_CATS, None),
    'ta': ('Indic', 'sib200', 'tam_Taml', SIB_CATS, None),
    'hy': ('Armenian', 'sib200', 'hye_Armn', SIB_CATS, None),
    'th': ('Thai', 'sib200', 'tha_Thai', SIB_CATS, None),
}

# Where each source lives under --mirrors, what it is, and its licence (written into the meta file).
SOURCES = {
    'masakhanews': ('masakhane-io+masakhane-news/repo', 'MasakhaNEWS (BBC and other African news sites)',
                    'AFL-3.0 (dataset card); article text from the news sites'),
    'gnad10k': ('tblock+10kGNAD/repo', '10kGNAD (derStandard.at, One Million Posts corpus)', 'CC BY-NC-SA 4.0'),
    'livedoor': ('jkatsuta+18_4q_doc2vec/repo', 'Livedoor news corpus (RONDHUIT)',
                 'CC BY-ND 2.1 JP: no derivatives, never commit or publish'),
    'thucnews': ('qianshuang+dl-exp/repo', 'THUCNews sample (cnews, Sina News)', 'research use (THUCTC)'),
    'sib200': ('dadelani+sib-200/repo', 'SIB-200 (FLORES-200 sentences with topic labels)', 'CC BY-SA 4.0'),
}

MIN_PER_CAT = 12  # fewer articles than this in one of the three categories: the source has failed


# ---------------------------------------------------------------- reading the bare mirrors

class Mirror:
    """A bare git mirror, read with `git show HEAD:<path>` and `git ls-tree` only."""

    def __init__(self, path):
        if not os.path.isdir(path):
            raise RuntimeError('no mirror at %s' % path)
        self.path = path

    def git(self, *args):
        return subprocess.run(['git', '-C', self.path] + list(args), check=True, capture_output=True).stdout

    def ls(self, prefix):
        """{path: size} of the files under prefix; size None where the blob is missing from the mirror."""
        out = {}
        for line in self.git('ls-tree', '-r', '-l', '-z', 'HEAD', *(['--', prefix] if prefix else [])
                             ).decode().split('\0'):
            if line:
                meta, path = line.split('\t', 1)
                size = meta.split()[3]
                out[path] = int(size) if size.isdigit() else None
        return out

    def show(self, path):
        return self.git('show', 'HEAD:' + path).decode('utf-8')

    def show_many(self, sizes, batch=200):
        """{path: text} for many files, a batch of paths per `git show` (which prints the blobs one
        after another); the sizes from ls() cut them apart."""
        paths, out = list(sizes), {}
        for i in range(0, len(paths), batch):
            part = paths[i:i + batch]
            raw = self.git('show', *['HEAD:' + p for p in part])
            pos = 0
            for p in part:
                out[p] = raw[pos:pos + sizes[p]].decode('utf-8', 'replace')
                pos += sizes[p]
        return out


def need(mirror, path):
    """The text of one file, or an error naming what is missing."""
    size = mirror.ls(path).get(path)
    if size is None:
        raise RuntimeError('%s is missing from the mirror %s' % (path, mirror.path))
    return mirror.show(path)


# ---------------------------------------------------------------- sentences, paragraphs, titles

TERM = '.!?؟։።।॥。！？｡'                     # sentence ends (Latin, Arabic, Armenian, Ethiopic, Indic, CJK)
NOSPACE = set('。！？｡።।॥')                  # these end a sentence even with no space after them
CLOSE = '"\'»”“’‘)]」』）】〕'                    # closing quotes and brackets that stay with the sentence
BOUNDARY = re.compile(r'(?:፡፡|[%s])+(?:[%s]|[ \u00a0\u202f]»)*' % (re.escape(TERM), re.escape(CLOSE)))  # French « ... . »
ABBR = set('''dr mr mrs ms st prof nr bzw ca vgl etc usw inkl bspw mme mlle sr sra av art abs jan feb mär apr
aug sep sept okt oct nov dez dec jr no vs'''.split())
HAN_KANA = re.compile(r'[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]')         # Chinese, Japanese
HANGUL = re.compile(r'[\uac00-\ud7af]')
SEA = re.compile(r'[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]')                # Thai, Lao, Myanmar, Khmer


def sentences(text):
    """Split text into sentences at . ! ? ؟ ։ (before a space) and 。！？ ። । ॥ ፡፡ (anywhere), keeping
    closing quotes with their sentence. A full stop does not end a sentence before a lower-case letter,
    after a one-letter word (an initial), a one- or two-digit number (German ordinals: "am 1. Mai") or a
    common abbreviation."""
    text = ' '.join(text.split())
    out, start = [], 0
    for m in BOUNDARY.finditer(text):
        end = m.end()
        term = m.group().rstrip(CLOSE + ' \u00a0\u202f')
        nxt = text[end:end + 1]
        if not (set(term) & NOSPACE or term == '፡፡'):
            if nxt and not nxt.isspace():
                continue  # 3.5, www.example.org, e.g.
            after = text[end:].lstrip()[:1]
            if after.islower():
                continue
            if term == '.':
                prev = text[start:m.start()].split()
                prev = prev[-1].strip(CLOSE + '(«“‘"\'') if prev else ''
                if (len(prev) == 1 and prev.isalpha()) or (prev.isdigit() and len(prev) <= 2) \
                        or prev.lower() in ABBR:
                    continue
        s = text[start:end].strip()
        if s:
            out.append(s)
        start = end
    s = text[start:].strip()
    if s:
        out.append(s)
    return out


def paragraphs(sents, key, max_paras=10):
    """Sentences grouped into paragraphs of 2-4 (sizes drawn from a generator seeded by the article's
    key), at most max_paras; a text of 3-5 sentences makes three short paragraphs; fewer, none."""
    n = len(sents)
    if n < 3:
        return []
    if n < 6:
        sizes = [n // 3 + (1 if i < n % 3 else 0) for i in range(3)]
    else:
        rng, sizes, rem = random.Random(zlib.crc32(key.encode())), [], n
        while rem > 0:
            after = max(0, 2 - len(sizes))  # paragraphs still needed after this one to make three
            if rem <= 4 and not after:
                s = rem
            else:  # leave room for them, and never a single sentence
                s = rng.randint(2, min(4, rem - 2 * max(after, 1)))
            sizes.append(s)
            rem -= s
    out, pos = [], 0
    for s in sizes[:max_paras]:
        out.append(join(sents[pos:pos + s]))
        pos += s
    return out


def join(sents):
    """Sentences joined into a paragraph: by a space, but none after 。！？ (Chinese and Japanese)."""
    text = sents[0]
    for s in sents[1:]:
        text += ('' if text.rstrip(CLOSE)[-1:] in '。！？｡' else ' ') + s
    return text


def title_of(sentence):
    """A headline made from a first sentence: without its final full stop; a long one is cut short.
    Chinese and Japanese (no spaces): at the first clause mark or space after 6 characters, at most 30
    characters (their headlines run into the text). Others at the last space before 45 characters
    (Korean), 60 (Thai, Lao, Myanmar, Khmer, which put spaces between phrases) or 90, with an ellipsis."""
    t = sentence.strip().rstrip('.。።।॥')
    share = lambda rx: len(rx.findall(t)) > len(t) / 3
    if share(HAN_KANA):
        if len(t) <= 30:
            return t
        m = re.search(r'[\s，、：；,:;！？]', t[6:])
        return t[:6 + m.start() if m and 6 + m.start() <= 30 else 30].strip()
    limit = 45 if share(HANGUL) else 60 if share(SEA) else 90
    if len(t) <= limit:
        return t
    cut = t.rfind(' ', 0, limit)
    return t[:cut if cut > limit // 3 else limit].rstrip(' ,;:–-') + '…'


def article(aid, cat, title, sents):
    paras = paragraphs(sents, aid)
    if len(paras) < 3 or not title:
        return None
    return {'id': aid, 'cat': cat, 'title': title, 'paras': paras}


# ---------------------------------------------------------------- converters: mirror -> articles

def masakhanews(root, sub):
    """MasakhaNEWS data/<lang>/{train,dev,test}.tsv: category, headline, text, url. Titles are the
    headlines. (train.tsv is absent from some mirrors: the splits present are used.)"""
    m = Mirror(os.path.join(root, SOURCES['masakhanews'][0]))
    files = m.ls('data/%s/' % sub)
    splits = [p for p in ('data/%s/%s.tsv' % (sub, s) for s in ('train', 'dev', 'test')) if files.get(p)]
    missing = [p for p in files if p.endswith('.tsv') and files[p] is None]
    if missing:
        print('  note: %s missing from the mirror; using %s' % (', '.join(missing), ', '.join(splits)),
              file=sys.stderr)
    if not splits:
        raise RuntimeError('no data/%s/*.tsv in the MasakhaNEWS mirror' % sub)
    csv.field_size_limit(1 << 30)
    for path in splits:
        rows = csv.DictReader(io.StringIO(m.show(path)), delimiter='\t')
        for i, r in enumerate(rows):
            aid = 'masakhanews/%s/%s/%d' % (sub, path.rsplit('/', 1)[1][:-4], i)
            yield article(aid, r['category'], ' '.join(r['headline'].split()), sentences(r['text']))


def gnad10k(root, _):
    """10kGNAD: articles.csv (label;'text'); where it is missing from the mirror, train.csv and test.csv,
    the same articles split. No headlines: the title is made from the first sentence (a teaser)."""
    m = Mirror(os.path.join(root, SOURCES['gnad10k'][0]))
    files = m.ls('')
    paths = ['articles.csv'] if files.get('articles.csv') else [p for p in ('train.csv', 'test.csv') if files.get(p)]
    if not paths:
        raise RuntimeError('no articles.csv, train.csv or test.csv in the 10kGNAD mirror')
    if paths != ['articles.csv']:
        print('  note: articles.csv missing from the mirror; using %s' % ', '.join(paths), file=sys.stderr)
    for path in paths:
        for i, r in enumerate(csv.reader(io.StringIO(m.show(path)), delimiter=';', quotechar="'")):
            if len(r) == 2:
                s = sentences(r[1])
                if s:
                    yield article('10kgnad/%s/%d' % (path[:-4], i), r[0], title_of(s[0]), s)


def livedoor(root, _):
    """Livedoor news corpus experiments/text/<category>/<category>-<n>.txt: URL, date, title, then the
    body. Lines of photo captions, lists and links (■【[・ and URLs, lines under 10 characters) are
    skipped; the body ends at its related-links section."""
    m = Mirror(os.path.join(root, SOURCES['livedoor'][0]))
    files = {p: s for p, s in m.ls('experiments/text/').items()
             if re.search(r'/([a-z-]+)/\1-\d+\.txt$', p) and s is not None}
    if not files:
        raise RuntimeError('no articles under experiments/text/ in the Livedoor mirror')
    for path, text in sorted(m.show_many(files).items()):
        lines = text.split('\n')
        if len(lines) < 4:
            continue
        cat = path.split('/')[-2]
        body = []
        for line in lines[3:]:
            line = line.strip().strip('\u3000')
            if re.match(r'(■|【)?関連', line):
                break
            if len(line) < 10 or line[0] in '■【[［・◆●▼' or 'http' in line:
                continue
            body += sentences(line)
        yield article('livedoor/' + path.rsplit('/', 1)[1][:-4], cat, lines[2].strip(), body)


def thucnews(root, _):
    """THUCNews sample data/cnews/cnews.{train,val,test}.txt: "label<TAB>text" lines (the headline runs
    into the text: the title is its first clause). Files with the same blob are read once."""
    m = Mirror(os.path.join(root, SOURCES['thucnews'][0]))
    listing, seen = m.ls('data/cnews/'), set()
    for split in ('train', 'val', 'test'):
        path = 'data/cnews/cnews.%s.txt' % split
        if path not in listing:
            continue
        if listing[path] is None:
            print('  note: %s missing from the mirror' % path, file=sys.stderr)
            continue
        blob = m.git('rev-parse', 'HEAD:' + path).strip()
        if blob in seen:
            print('  note: %s is the same file as one read already; skipped' % path, file=sys.stderr)
            continue
        seen.add(blob)
        for i, line in enumerate(m.show(path).split('\n')):
            if '\t' in line:
                cat, text = line.split('\t', 1)
                s = sentences(text)
                if s:
                    yield article('thucnews/%s/%d' % (split, i), cat, title_of(s[0]), s)


def sib200(root, lang):
    """SIB-200 data/annotated/<lang>/{train,dev,test}.tsv: index_id, category, text; one sentence a row.
    The sentences of a category, in index_id order (FLORES order: consecutive sentences of one source
    article stay together), are cut into runs of 6-9, each a pseudo-article whose title is made from
    its first sentence."""
    m = Mirror(os.path.join(root, SOURCES['sib200'][0]))
    rows = []
    for split in ('train', 'dev', 'test'):
        text = need(m, 'data/annotated/%s/%s.tsv' % (lang, split))
        rows += [(int(r['index_id']), r['category'], r['text'].strip())
                 for r in csv.DictReader(io.StringIO(text), delimiter='\t', quoting=csv.QUOTE_NONE)]
    bycat = defaultdict(list)
    for idx, cat, text in sorted(rows):
        bycat[cat].append(text)
    for cat in sorted(bycat):
        sents, rng, pos, k = bycat[cat], random.Random(zlib.crc32(('%s/%s' % (lang, cat)).encode())), 0, 0
        while len(sents) - pos >= 6:
            rem = len(sents) - pos
            n = rem if rem <= 9 else (rng.randint(6, min(9, rem - 6)) if rem >= 12 else 9)
            run = sents[pos:pos + n]
            pos += n
            k += 1
            yield article('sib200/%s/%s/%03d' % (lang, cat.replace('/', '-'), k), cat, title_of(run[0]), run)


# ---------------------------------------------------------------- one language

def interleave(arts):
    """Round-robin over the categories (in order of first appearance), so that any prefix of the file
    mixes them: gen_collection.py takes the text of repurposed sites from the first 600 articles
    outside a collection's category."""
    by = defaultdict(list)
    for a in arts:
        by[a['cat']].append(a)
    queues, out = list(by.values()), []
    while queues:
        for q in queues:
            out.append(q.pop(0))
        queues = [q for q in queues if q]
    return out


def convert(lang, root, max_per_cat):
    """(articles, meta) of one language, from its source or else from SIB-200."""
    family, source, arg, cats, fallback = LANGS[lang]
    tried = []
    for src, a, cs in [(source, arg, cats)] + ([('sib200', fallback, SIB_CATS)] if fallback else []):
        try:
            arts = [x for x in globals()[src](root, a) if x]
            count = Counter(x['cat'] for x in arts)
            short = [c for c in cs if count[c] < MIN_PER_CAT]
            if short:
                raise RuntimeError('too few articles in %s (%s)' % (', '.join(short), dict(count)))
        except (RuntimeError, subprocess.CalledProcessError, KeyError, ValueError) as e:
            tried.append('%s: %s' % (src, e))
            print('  %s: source %s failed: %s' % (lang, src, e), file=sys.stderr)
            continue
        kept, n = [], Counter()
        for x in arts:  # the first max_per_cat of each category, in source order
            if n[x['cat']] < max_per_cat:
                n[x['cat']] += 1
                kept.append(x)
        meta = {'lang': lang, 'family': family, 'source': src + ('/' + a if a else ''),
                'description': SOURCES[src][1], 'licence': SOURCES[src][2], 'cats': cs,
                'articles': len(kept), 'by_cat': dict(sorted(n.items())), 'failed': tried}
        return interleave(kept), meta
    raise RuntimeError('%s: every source failed: %s' % (lang, '; '.join(tried)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('langs', nargs='*', help='languages to convert (default: all: %s)' % ' '.join(LANGS))
    ap.add_argument('--mirrors', default='/work/.mirror', help='folder of the git mirrors (default %(default)s)')
    ap.add_argument('--out', default='/tmp/ml/articles', help='output folder (default %(default)s)')
    ap.add_argument('--max-per-cat', type=int, default=250,
                    help='articles kept per category (default %(default)s; the BBC pool has about 210)')
    ap.add_argument('--cats', metavar='LANG', help='print the categories of a converted language and exit')
    a = ap.parse_args()
    if a.cats:
        with open(os.path.join(a.out, a.cats + '.meta.json')) as f:
            print(','.join(json.load(f)['cats']))
        return
    bad = [x for x in a.langs if x not in LANGS]
    if bad:
        ap.error('unknown language(s) %s; known: %s' % (' '.join(bad), ' '.join(LANGS)))
    os.makedirs(a.out, exist_ok=True)
    for lang in a.langs or LANGS:
        arts, meta = convert(lang, a.mirrors, a.max_per_cat)
        with open(os.path.join(a.out, lang + '.jsonl'), 'w', encoding='utf-8') as f:
            for x in arts:
                f.write(json.dumps(x, ensure_ascii=False) + '\n')
        with open(os.path.join(a.out, lang + '.meta.json'), 'w', encoding='utf-8') as f:
            json.dump(meta, f, ensure_ascii=False, indent=1)
        print('%s\t%s\t%d articles\t%s' % (lang, meta['source'], meta['articles'],
                                           ' '.join('%s=%d' % kv for kv in meta['by_cat'].items())))


if __name__ == '__main__':
    main()
