#!/usr/bin/env python3
"""Labelled off-topic collections with harder phenomena, made by gen_collection.py plus eight more scenarios.

    gen.py --out DIR [--seed N] [--scale F] [--shared DIR]

Imports ../shared/tools/gen_collection.py as a module (it is neither copied nor changed) and runs its
build(): the output (WARCs, gold.tsv, scenarios.tsv, seeds.txt, STATS.md) is the generator's collection in
which about a third of the seeds that it plans as on-topic throughout ("on:*") are given one phenomenon
each (shares in SHARES below): redirect-away, redirect-same, frames, jsapp, shell, drift, injected,
parked-topical (README.md beside this file describes them). The generator's own seeds, scenarios and
non-200 captures are left as it makes them: every seed it plans off-topic keeps its plan, and a seed with
no phenomenon is, capture for capture, the seed `gen_collection.py --seed N --scale F` writes (same gold
rows, same page bytes; only the WARC record ids differ).

What is replaced, and why (build() itself is a single loop with no hook for extra captures or labels):
- capture_times(), seed_plan(): wrapped, only to record what the generator planned for each seed (its
  capture times, page kind, story thread, the other-subject thread it drew, site) and to give some
  "on:*" seeds a phenomenon. They return what the generator's functions return.
- write_warcs(): wrapped. Before writing a collection, the captures of each phenomenon seed inside the
  phenomenon's time window are taken out of the generator's events and the phenomenon's captures put in
  (seed pages, 301/302 responses, redirect and frame targets on other URIs), then the generator's
  write_warcs() writes them. It is given its own random.Random, and the generator's stream is advanced
  exactly as its write_warcs() would have advanced it (consume_draws()), so the next collection's seeds
  come out as the generator makes them.
- gold.tsv, scenarios.tsv, STATS.md: rewritten after build(): the window rows of phenomenon seeds are
  replaced by the phenomenon's rows (which add the 3xx captures of redirecting seeds, not in the
  generator's gold), scenarios.tsv gains a fifth column `kind` (the expected kind of off-topic page for
  label-0 rows, from a fixed vocabulary), and STATS.md counts phenomena, scenarios and kinds.
All the phenomena's randomness comes from random.Random objects seeded with strings built from --seed
(never the clock or hash()): the same arguments give the same bytes.
"""
import argparse, datetime as dt, json, os, random, re, sys, time
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SHARED = os.path.normpath(os.path.join(HERE, '..', '..', '..', 'shared'))  # ../shared beside the repo
G = None  # the gen_collection module, imported in main()

# ---------------------------------------------------------------- shares, labels, kinds

# Share of ALL seeds given each phenomenon (taken from the seeds the generator plans as "on:*", so that its
# own off-topic scenarios keep their numbers). Per collection: int(seeds * share + 0.5).
SHARES = {
    'redirect-away': 0.045,   # the seed 301/302s to a parking host or an unrelated site (3xx rows label 0)
    'redirect-same': 0.045,   # the seed 301/302s to its own new URL (https, www, new path; label 1)
    'frames': 0.045,          # frameset / full-page iframe of the page on another host (label 1)
    'jsapp': 0.045,           # JavaScript app, the article in inline JSON (label 1)
    'shell': 0.045,           # JavaScript shell with no content (label 0)
    'drift': 0.045,           # front page whose stories move to another subject one by one (1, then 0)
    'injected': 0.045,        # hacked: title + first paragraph kept, 3-10x as many words of SEO spam (0)
    'parked-topical': 0.045,  # parked page whose "related searches" are the site's own topic words (0)
    # What real collections showed (issue 33), each a general web phenomenon:
    'moved': 0.03,            # the address serves one old article of another address, frozen (1, then 0)
    'bilingual': 0.03,        # the site writes English and Arabic, the main language changing (1)
    'rotate-thin': 0.03,      # a blog front page showing only its newest one or two posts of its subject (1)
    'hidden-text': 0.03,      # the page's posts in <code><!-- ... --></code> blocks its scripts show (1)
    'splash': 0.03,           # a language-choice or campaign entrance page of the site (1)
    'thin-t0': 0.02,          # a page of next to no words (a Flash intro), then suspended or maintenance (1, then 0)
}
# Variants, as shares of each phenomenon's seeds (rounded per collection as above):
T0_SHARE = {'jsapp': 0.30, 'parked-topical': 1 / 3}  # from the first capture (parked-topical: 1-2 captures,
                                                     # then the real content)
TEMPORARY = {'shell': 0.20, 'injected': 0.25, 'splash': 0.5}  # 1-3 captures, then the page comes back
PHEN_KIND = {'redirect-away': 'redirected', 'shell': 'blank', 'drift': 'drifted', 'injected': 'spam',
             'parked-topical': 'parked', 'moved': 'redirected'}
GEN_KIND = {'parked': 'parked', 'spam': 'spam', 'suspended': 'suspended', 'dberror': 'error',
            'soft404': 'not-found', 'construction': 'maintenance', 'login': 'login', 'blank': 'blank',
            'repurposed': 'replaced'}
KIND_OF = dict(GEN_KIND, **PHEN_KIND)  # scenario of a label-0 row -> kind (label-1 rows: empty)


def canon(u):
    """The URI without scheme and www.: captures of one page under its spellings share it."""
    return re.sub(r'^https?://(www\.)?', '', u)


def hexid(rng, n):
    return '%0*x' % (n, rng.getrandbits(4 * n))


def slugify(title):
    return re.sub(r'[^a-z0-9]+', '-', title.lower()).strip('-')[:60]


def iso(t, z=True):
    return t.strftime('%Y-%m-%dT%H:%M:%S') + ('Z' if z else '+00:00')


def seconds(n):
    return dt.timedelta(seconds=n)


# ---------------------------------------------------------------- other hosts (not the generator's names)

HOST_A = ['maple', 'copper', 'bluefin', 'kestrel', 'juniper', 'saffron', 'granite', 'lantern', 'meadow',
          'orchid', 'pebble', 'quartz', 'rowan', 'tamarind', 'willow', 'zephyr', 'aurora', 'cobalt', 'ember',
          'fjord', 'hazel', 'indigo', 'lupin', 'marlin', 'nimbus', 'otter', 'pinecone', 'sorrel']
HOST_B = ['media', 'press', 'studio', 'works', 'hub', 'zone', 'point', 'line', 'wire', 'desk', 'lab', 'space',
          'central', 'online', 'world', 'guide', 'spot', 'place', 'corner', 'depot', 'square', 'garden']
HOST_TLD = ['com', 'net', 'biz', 'us', 'eu', 'tv', 'de', 'ca', 'com.au', 'nl', 'co', 'ws']
PARKERS = ['Namequay', 'DNSvault', 'IdleNest', 'Parkorama', 'DomainRoost', 'TLDbazaar', 'NameForge',
           'Parkhaven', 'SiteLot', 'Adlander', 'Dormant Domains', 'Holdpage']
ISPS = ['members.lakeline.net', 'homepages.brightwave-isp.co.uk', 'pages.orbitnet.org', 'users.cablemesh.com',
        'web.telenordic.net', 'home.fibrelink.ie', 'perso.vallee-net.fr', 'mitglieder.netzwelle.de']
FREEHOSTS = ['pagenook.com', 'sitecabin.net', 'hostbarn.org', 'webcrate.info', 'freepage-planet.com',
             'tinyhome.ws', 'mysite-box.net']


def other_site(rng, used):
    """A site on another host, in one of the generator's skins but named from other word lists."""
    while True:
        a, b = rng.choice(HOST_A), rng.choice(HOST_B)
        style = rng.randrange(4)
        host = [a + b, a + '-' + b, 'the' + a + b, '%s%s%d' % (a, b, rng.randint(2, 999))][style]
        host += '.' + rng.choice(HOST_TLD)
        if host not in used:
            used.add(host)
            break
    return {'name': '%s %s' % (a.title(), b.title()), 'host': host, 'www': rng.random() < 0.5,
            'https': False, 'skin': rng.choice(['table', 'div', 'html5']), 'nav': rng.sample(G.NAV, 8),
            'ads': rng.random() < 0.7, 'charset': rng.choice(['utf-8', 'utf-8', 'iso-8859-1']),
            'gzip': rng.random() < 0.4, 'chunked': rng.random() < 0.3,
            'js': G.filler(rng, G.JS_STMT, rng.randint(10, 60)), 'css': G.filler(rng, [G.CSS_RULE], rng.randint(5, 30))}


def plain_site(rng, charset='utf-8'):
    """HTTP settings for a page outside any site template (parking pages, redirects of other hosts)."""
    return {'charset': charset, 'gzip': rng.random() < 0.4, 'chunked': rng.random() < 0.3}


# ---------------------------------------------------------------- parked pages

PARK_GENERIC = ['Cheap Car Rental', 'Online MBA Programs', 'Home Security Systems', 'Solar Panels',
                'Student Loans', 'Dental Implants', 'Cruise Deals', 'Auto Insurance Quotes', 'Pet Insurance',
                'Business Phone Systems', 'Online Backup', 'Retirement Homes', 'Forex Trading',
                'Language Courses', 'Flower Delivery', 'Wedding Dresses', 'Cheap Hotels', 'Cell Phones',
                'Digital Cameras', 'Home Loans', 'Medical Alarms', 'Moving Companies']
PARK_SALE = [
    'The owner of {host} is offering it for sale. Make an offer today.',
    'Buy this domain: {host} could be yours, with secure checkout and fast transfer.',
    'This web address has expired and is now listed in the {brand} marketplace.',
    'Interested in {host}? Send your offer to the current registrant.',
    '{host} is available! Ask now for the price.',
    'This domain is parked with {brand}. Get a domain name of your own today.',
    'Purchase {host} today - financing available, escrow protected.',
    'Diese Domain steht zum Verkauf. Jetzt ein Angebot abgeben.',
    'Ce nom de domaine est à vendre. Contactez le propriétaire.',
]
PARK_HEAD = ['Related Searches', 'Sponsored Listings', 'Popular Categories', 'Top Searches', 'Suggested Links',
             'Trending Topics', 'Related Links', 'Sponsored Results', 'Quick Links']
PARK_DESC = ['Find great deals on {t}.', 'Top results for {t}.', '{t}: compare and save.',
             'See listings for {t} near you.', 'Everything about {t} in one place.', 'Looking for {t}? Start here.']
PARK_FOOT = ['Disclaimer: {brand} is not affiliated with the advertisers on this page.',
             'Copyright &copy; {year} {brand}. All rights reserved. | Privacy Policy',
             'The sponsored listings on this page are provided by third parties.',
             'This page is provided courtesy of {brand}. Terms | Privacy']


def parked_html(rng, host, brand, terms, when, style, sale):
    """A parking page: the domain, a sale line, a list of search links (terms), a footer."""
    fill = dict(host=host, brand=brand, year=when.year)
    q = rng.choice(['/?q=%s', '/search?kw=%s&domain=' + host, 'http://' + brand.lower().replace(' ', '') + '.com/results?term=%s'])
    links = ['<a href="%s">%s</a>' % (G.esc(q % t.replace(' ', '+')), G.esc(t)) for t in terms]
    head = rng.choice(PARK_HEAD)
    sale_line = G.esc(sale.format(**fill))
    foot = rng.choice(PARK_FOOT).format(**fill)
    title = rng.choice(['{host}', '{host} - for sale', 'Welcome to {host}', '{host} - {t}']).format(host=host, t=terms[0])
    if style == 0:    # header, sale line, one column of links
        body = '<div class="top"><h1>%s</h1><p>%s</p></div><div class="links"><h2>%s</h2><ul>%s</ul></div>' % (
            G.esc(host), sale_line, head, ''.join('<li>%s</li>' % l for l in links))
    elif style == 1:  # sponsored listings with one-line descriptions, in a table
        rows = ''.join('<tr><td class="ad">%s<br><span>%s</span></td></tr>' % (
            l, G.esc(rng.choice(PARK_DESC).format(t=t))) for l, t in zip(links, terms))
        body = '<table width="760" align="center"><tr><td><b>%s</b></td></tr><tr><td>%s</td></tr>%s</table>' % (
            head, sale_line, rows)
    elif style == 2:  # marketplace: price, offer form, then a few searches
        price = rng.choice(['$%d,%03d' % (rng.randint(1, 9), rng.randrange(0, 1000, 50)), '&euro;%d' % rng.randrange(500, 9000, 100),
                            'Make an offer'])
        body = ('<div class="sale"><h1>%s</h1><h2>%s</h2><p class="price">%s</p><form action="/offer" method="post">'
                '<input name="offer" placeholder="Your offer"><button>Submit</button></form></div>'
                '<div class="kw"><h3>%s</h3><p>%s</p></div>') % (G.esc(host), sale_line, price, head, ' &middot; '.join(links))
    else:             # search box and links in two columns
        half = (len(links) + 1) // 2
        body = ('<form action="/search"><input type="text" name="q"><input type="submit" value="Search"></form>'
                '<p>%s</p><h3>%s</h3><div class="col"><ul>%s</ul></div><div class="col"><ul>%s</ul></div>') % (
            sale_line, head, ''.join('<li>%s</li>' % l for l in links[:half]), ''.join('<li>%s</li>' % l for l in links[half:]))
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>%s</title><style>body{font:13px Arial}'
            '.links a,.ad a{color:#0033cc}</style></head><body>%s<div class="foot"><p>%s</p></div></body></html>') % (
        G.esc(title), body, foot)


def topic_terms(thread, rng, k):
    """Search phrases from the seed's own story thread, as parkers derive them from a domain's history:
    pairs of adjacent content words of the titles, and the thread's most frequent words."""
    pairs, freq = [], Counter()
    content = lambda w: w and w.lower() not in G.STOP and len(w) > 2
    for a in thread:
        ws = [w.strip("'-") for w in re.findall(r"[A-Za-z][A-Za-z'-]*", a['title'])]
        pairs += ['%s %s' % (x.title(), y.title()) for x, y in zip(ws, ws[1:]) if content(x) and content(y)]
        freq.update(w.strip("'-") for w in G.words(a['title'] + ' ' + ' '.join(a['paras'])))
    singles = [w.title() for w, _ in freq.most_common(12) if len(w) > 2]
    pool = pairs + singles + ['%s %s' % (w, rng.choice(['News', 'Latest', 'Today', 'Online', 'Updates', 'Info']))
                              for w in singles[:5]]
    out, seen = [], set()
    for t in rng.sample(pool, len(pool)):
        if t.lower() not in seen:
            seen.add(t.lower())
            out.append(t)
    return out[:k]


# ---------------------------------------------------------------- JavaScript pages

NOSCRIPT = ['You need to enable JavaScript to run this app.', 'Please enable JavaScript in your browser to view this site.',
            'This site requires JavaScript. Turn it on and reload the page.', 'JavaScript is disabled in your browser.',
            'Bitte aktivieren Sie JavaScript, um diese Seite anzuzeigen.', 'Veuillez activer JavaScript pour afficher ce site.',
            'Por favor, habilita JavaScript para ver esta página.', 'Schakel JavaScript in om deze website te gebruiken.',
            'Per favore abilita JavaScript per continuare.']
SHELL_TITLES = ['{name}', 'Loading...', '', 'React App', '{host}', '{name} | Home', 'App']


def shell_html(A, site, rng):
    """A JavaScript shell: mount point, external bundles, maybe a <noscript> line; no content."""
    h = A['hash'] if rng.random() < 0.85 else hexid(rng, 8)  # a redeploy now and then changes the bundle names
    mount, scripts = {
        'react': ('<div id="root"></div>', ['/static/js/runtime-main.%s.js', '/static/js/main.%s.chunk.js']),
        'vue': ('<div id="app"></div>', ['/js/chunk-vendors.%s.js', '/js/app.%s.js']),
        'angular': ('<app-root></app-root>', ['runtime.%s.js', 'polyfills.%s.js', 'main.%s.js']),
        'next': ('<div id="__next"></div>', ['/_next/static/chunks/main-%s.js', '/_next/static/chunks/pages/_app-%s.js']),
        'loader': ('<div id="app-shell"><div class="spinner"></div></div>', ['//cdn.%s/bundle.min.js?v=%%s' % A['cdn']]),
    }[A['framework']]
    tags = ''.join('<script src="%s"%s></script>' % (s % h, A['defer']) for s in scripts)
    nos = '<noscript>%s</noscript>' % G.esc(A['noscript']) if A['noscript'] else ''
    title = G.esc(A['title'].format(name=site['name'], host=site['host']))
    return ('<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,'
            'initial-scale=1"><title>%s</title><link href="/static/css/main.%s.css" rel="stylesheet"></head><body>%s%s%s'
            '</body></html>') % (A['lang'], title, h, nos, mount, tags)


def blocks(A, paras, rng):
    """The paragraphs in one of the shapes that content APIs give them."""
    form = A['blocks']
    if form == 'html':
        return ''.join('<p>%s</p>' % G.esc(p) for p in paras)
    if form == 'strings':
        return list(paras)
    if form == 'portable':  # Sanity-style portable text
        return [{'_type': 'block', '_key': hexid(rng, 12), 'style': 'normal', 'markDefs': [],
                 'children': [{'_type': 'span', '_key': hexid(rng, 12), 'text': p, 'marks': []}]} for p in paras]
    if form == 'richtext':  # Contentful-style document
        return {'nodeType': 'document', 'data': {}, 'content': [
            {'nodeType': 'paragraph', 'data': {}, 'content': [{'nodeType': 'text', 'value': p, 'marks': [], 'data': {}}]}
            for p in paras]}
    out = []  # 'blocks': typed blocks whose text is split into spans, some marked
    for p in paras:
        cut = p.find('. ') + 1 if '. ' in p and rng.random() < 0.4 else 0
        kids = [{'type': 'text', 'text': p[:cut], 'bold': True}, {'type': 'text', 'text': p[cut:].lstrip()}] if cut else \
            [{'type': 'text', 'text': p}]
        out.append({'type': 'paragraph', 'id': hexid(rng, 8), 'children': kids})
    return out


def article_obj(A, a, paras, when, rng):
    """One article as an app's API gives it: text plus ids, slugs, image URLs, class names, dates."""
    aid = A['ids'].setdefault(a['id'], hexid(rng, 24))
    slug = slugify(a['title'])
    img = 'https://%s/images/%d/%02d/%s-%s_1200x675.jpg' % (A['cdn'], when.year, when.month, slug[:30], aid[:8])
    o = {'id': aid, '__typename': 'Article', 'slug': slug, 'url': '/news/%s' % slug,
         A['k_title']: a['title'], 'publishedAt': iso(A['published']), 'updatedAt': iso(when, A['z']),
         'section': {'id': hexid(rng, 6), 'name': A['section'], 'slug': A['section'].lower()},
         'leadImage': {'src': img, 'width': 1200, 'height': 675, 'alt': '', 'className': A['cls_img']},
         'byline': {'name': A['author'], 'avatar': 'https://%s/avatars/%s.png' % (A['cdn'], hexid(rng, 6))},
         'tags': [t.lower() for t in A['tags']], 'className': A['cls_body'], 'readingTime': 1 + len(' '.join(paras).split()) // 200}
    body = blocks(A, paras, rng)
    if A['nest']:
        o['content'] = {'format': A['blocks'], 'version': 2, A['k_body']: body}
    else:
        o[A['k_body']] = body
    return o


def app_html(A, site, stories, when, rng):
    """A JavaScript app page: an empty mount point; the stories live in inline JSON."""
    dump = lambda o: json.dumps(o, ensure_ascii=A['ascii'], separators=(',', ':')).replace('</', '<\\/')
    arts = [article_obj(A, a, ps, when, rng) for a, ps in stories]
    one = len(arts) == 1
    nav = [{'label': n, 'href': '/' + n.lower().replace(' ', '-')} for n in site['nav']]
    title = stories[0][0]['title'] if A['title_mode'] == 'article' else site['name'] if A['title_mode'] == 'site' else \
        '%s | %s' % (stories[0][0]['title'], site['name'])
    head = '<meta charset="utf-8"><title>%s</title><meta name="viewport" content="width=device-width">' % G.esc(title)
    page_data = {'article': arts[0]} if one else {'stories': arts, 'layout': 'river'}
    if A['style'] == 'next':
        data = {'props': {'pageProps': dict(page_data, site={'name': site['name'], 'nav': nav, 'gaId': A['ga']},
                                            related=[{'title': t, 'href': '/news/' + slugify(t)} for t in A['related']]),
                          '__N_SSG': True},
                'page': '/news/[slug]' if one else '/', 'query': {'slug': arts[0]['slug']} if one else {},
                'buildId': A['hash'], 'isFallback': False, 'scriptLoader': []}
        body = ('<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">%s</script>'
                '<script src="/_next/static/chunks/framework-%s.js" defer></script>'
                '<script src="/_next/static/chunks/pages/_app-%s.js" defer></script>') % (dump(data), A['hash'][:16], hexid(rng, 16))
        head += '<link rel="preload" href="/_next/static/css/%s.css" as="style">' % A['hash'][:16]
    elif A['style'] == 'state':
        state = {'router': {'location': {'pathname': A['path'], 'search': '', 'hash': ''}},
                 'entities': {'articles': {x['id']: x for x in arts}},
                 'pages': {'current': {'ids': [x['id'] for x in arts], 'status': 'loaded', 'fetchedAt': iso(when)}},
                 'ui': {'theme': 'light', 'menuOpen': False, 'nav': nav, 'breakpoint': 'desktop'},
                 'config': {'apiBase': 'https://api.%s/v2' % A['cdn'], 'gtm': A['ga'], 'locale': A['lang']}}
        body = ('<div id="root"></div><script>window.__INITIAL_STATE__ = %s;</script>'
                '<script src="/static/js/bundle.%s.js"></script>') % (dump(state), A['hash'][:10])
    elif A['style'] == 'nuxt':
        if A['iife']:  # Nuxt 2 writes the state as a function of its repeated values
            vals = [arts[0][A['k_title']], arts[0].get(A['k_body'], arts[0].get('content')), A['lang'], A['section'], iso(when)]
            body_js = ('(function(a,b,c,d,e){return {layout:"default",data:[{%s:{id:"%s",%s:a,%s:b,section:d,updatedAt:e}%s}],'
                       'fetch:{},error:null,state:{locale:c,route:{path:"%s"}},serverRendered:true,routePath:"%s"}}(%s))') % (
                'article' if one else 'lead', arts[0]['id'], A['k_title'], A['k_body'],
                '' if one else ',more:%s' % dump(arts[1:]), A['path'], A['path'], ','.join(dump(v) for v in vals))
        else:
            body_js = dump({'layout': 'default', 'data': [page_data], 'fetch': {}, 'error': None,
                            'state': {'locale': A['lang'], 'nav': nav}, 'serverRendered': True})
        body = ('<div id="__nuxt"><div id="__layout"></div></div><script>window.__NUXT__=%s;</script>'
                '<script src="/_nuxt/%s.js" defer></script>') % (body_js, A['hash'][:8])
    else:  # 'jsonld': the text only in schema.org JSON-LD, the page an empty app
        def ld(x, a_ps):
            return {'@type': 'NewsArticle', 'headline': x[A['k_title']], 'datePublished': x['publishedAt'],
                    'dateModified': x['updatedAt'], 'image': [x['leadImage']['src']],
                    'author': {'@type': 'Person', 'name': A['author']},
                    'articleBody': A['ld_sep'].join(a_ps[1]), 'articleSection': A['section'], 'url': 'http://%s%s' % (site['host'], x['url'])}
        if one:
            data = dict(ld(arts[0], stories[0]), **{'@context': 'https://schema.org',
                        'publisher': {'@type': 'Organization', 'name': site['name'], 'logo': {'@type': 'ImageObject', 'url': 'https://%s/logo.png' % A['cdn']}}})
        else:
            data = {'@context': 'https://schema.org', '@type': 'ItemList', 'itemListElement': [
                {'@type': 'ListItem', 'position': k + 1, 'item': ld(x, s)} for k, (x, s) in enumerate(zip(arts, stories))]}
        body = ('<div id="app" class="%s"></div><script type="application/ld+json">%s</script>'
                '<script>window.dataLayer=window.dataLayer||[];dataLayer.push({"pageType":"%s","contentId":"%s"});</script>'
                '<script src="https://%s/app.%s.js" async></script>') % (
            A['cls_body'], dump(data), 'article' if one else 'section', arts[0]['id'], A['cdn'], A['hash'][:12])
    if A['noscript']:
        body = '<noscript>%s</noscript>' % G.esc(A['noscript']) + body
    return '<!DOCTYPE html><html lang="%s"><head>%s</head><body>%s</body></html>' % (A['lang'], head, body)


def app_settings(S, site, rng):
    """Per-seed choices of a JavaScript app: framework, shape of its data, names of its files."""
    lead = S.thread[0]
    return {'style': rng.choice(['next', 'state', 'nuxt', 'jsonld']),
            'blocks': rng.choice(['blocks', 'html', 'strings', 'portable', 'richtext']),
            'iife': rng.random() < 0.5, 'ascii': rng.random() < 0.3, 'nest': rng.random() < 0.4, 'z': rng.random() < 0.5,
            'k_title': rng.choice(['title', 'headline']), 'k_body': rng.choice(['body', 'content', 'blocks', 'text']),
            'title_mode': rng.choice(['article', 'site', 'both']), 'ld_sep': rng.choice(['\n\n', ' ', '\n']),
            'hash': hexid(rng, 20), 'ga': 'UA-%d-%d' % (rng.randint(100000, 9999999), rng.randint(1, 9)),
            'cdn': 'cdn.%s' % rng.choice(['static', 'assets', 'img', 'media']) + '-' + site['host'].split('.')[0] + '.net',
            'cls_body': 'css-%s %s' % (hexid(rng, 6), 'Article_body__%s' % hexid(rng, 5)),
            'cls_img': 'css-%s' % hexid(rng, 6), 'section': rng.choice(['News', 'Latest', 'UK', 'Top stories', 'Home', 'Front']),
            'author': rng.choice(['Newsdesk', '%s staff' % site['name'], 'Online team', 'Web editor']),
            'published': S.times[0] - seconds(rng.randint(600, 86400)), 'lang': rng.choice(['en', 'en', 'en-GB']),
            'tags': topic_terms(S.thread, rng, 4), 'related': [a['title'] for a in S.thread[1:4]],
            'path': S.path, 'ids': {}, 'lead': lead,
            'noscript': rng.choice(NOSCRIPT) if rng.random() < 0.35 else '', 'defer': rng.choice(['', ' defer'])}


def app_stories(S, i, st, rng):
    """What the app shows at capture i, as (article, paragraphs) pairs: the seed's story going on."""
    thread, n = S.thread, len(S.times)
    if S.kind in ('front', 'blog'):
        k = 3 if S.kind == 'front' else 2
        if i > 0 and rng.random() < 0.15:
            st['pos'] = min(st.get('pos', 0) + 1, len(thread) - k)
        window = thread[st.get('pos', 0):st.get('pos', 0) + k]
        return [(a, a['paras'][:1] if S.kind == 'front' else a['paras'][:4]) for a in window]
    lead = thread[0]
    if S.kind == 'live':
        more = [p for a in thread[1:] for p in a['paras']]
        return [(lead, lead['paras'][:3] + more[:int(len(more) * i / max(1, n - 1))])]
    if rng.random() < 0.1 and len(thread) > 1:
        st.setdefault('updates', []).append('Update: ' + rng.choice(thread[1:])['paras'][0])
    return [(lead, lead['paras'] + st.get('updates', []))]


# ---------------------------------------------------------------- frames, redirects

NOFRAMES = ['Your browser does not support frames. <a href="{u}">Continue to the site</a>.',
            'This page uses frames, which your browser cannot show. Please go to <a href="{u}">{u}</a>.',
            '<a href="{u}">Click here</a> to enter.', 'Ihr Browser unterstützt keine Frames. <a href="{u}">Weiter</a>',
            '', '']


def frames_html(F, url, title):
    t = '<title>%s</title>' % G.esc(title)
    nof = F['noframes'].format(u=G.esc(url))
    if F['style'] == 'frameset':
        second = '<frame src="about:blank" name="hidden" scrolling="no" noresize>' if F['two'] else ''
        return ('<html><head>%s%s</head><frameset %s border="0" frameborder="0" framespacing="0">'
                '<frame src="%s" name="main" noresize>%s<noframes>%s</noframes></frameset></html>') % (
            t, F['meta'], F['rows'], G.esc(url), second, nof)
    if F['style'] == 'iframe-css':
        return ('<!DOCTYPE html><html><head>%s%s<style>html,body{margin:0;padding:0;height:100%%;overflow:hidden}</style>'
                '</head><body><iframe src="%s" style="width:100%%;height:100%%;border:0" frameborder="0">%s</iframe>'
                '</body></html>') % (t, F['meta'], G.esc(url), nof)
    return ('<html><head>%s%s</head><body style="margin:0px;padding:0px">'
            '<iframe src="%s" width="100%%" height="100%%" frameborder="0" scrolling="auto" marginwidth="0" marginheight="0">'
            '</iframe></body></html>') % (t, F['meta'], G.esc(url))


REDIRECT_BODY = [
    '',
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>{s} {r}</title>\n</head><body>\n'
    '<h1>{r}</h1>\n<p>The document has moved <a href="{u}">here</a>.</p>\n</body></html>\n',
    '<html>\r\n<head><title>{s} {r}</title></head>\r\n<body>\r\n<center><h1>{s} {r}</h1></center>\r\n'
    '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    '<head><title>Document Moved</title></head>\n<body><h1>Object Moved</h1>This document may be found '
    '<a HREF="{u}">here</a></body>',
]
REASON = {301: 'Moved Permanently', 302: 'Found'}


# ---------------------------------------------------------------- injected spam

SPAM_THEMES = {
    'pharmacy': (['cialis', 'levitra', 'tramadol', 'xanax', 'valium', 'phentermine', 'propecia', 'ambien', 'soma',
                  'tadalafil', 'sildenafil', 'clomid', 'accutane', 'zithromax', 'meridia', 'carisoprodol'],
                 ['Order {item} online with no prescription needed and save up to {pct}%.',
                  'Our licensed online drugstore ships generic {item} worldwide in {n} days.',
                  '{Item} from just ${price} per tablet, discreet packaging, overnight delivery.',
                  'Wondering where to get {item} cheap? {link} is the trusted source.',
                  'Lowest prices on {item} and {item2}, with free bonus pills on every order.',
                  'No doctor visit, no questions asked: {link} today.',
                  'Generic {item} works just like the brand for a fraction of the price.'],
                 ['rx', 'meds', 'pills', 'pharma', 'drugstore', 'tabs', 'remedy'], ['-online', '24', '-direct', 'shop', '-express', 'world']),
    'casino': (['online roulette', 'blackjack', 'free spins', 'video poker', 'slot machines', 'no deposit bonus',
                'sportsbook', 'online bingo', 'baccarat', 'texas holdem', 'craps', 'keno'],
               ['Play {item} for real money and grab a {pct}% match bonus up to ${n}0.',
                'Sign up now at {link} and get {n} {item} on your first deposit.',
                'Top rated {item} sites reviewed: instant withdrawals and huge jackpots.',
                'Win big tonight with {item}, the jackpot is already ${price},000!',
                '{Item} strategy guide: beat the house with our winning system.',
                'New players love {item} and {item2} at {link}.'],
               ['casino', 'spin', 'jackpot', 'vegas', 'bet', 'lucky'], ['-royal', 'palace', '-club', 'king', '-online', 'city']),
    'loans': (['payday loans', 'cash advance', 'bad credit loans', 'personal loans', 'no fax payday loan',
               'debt consolidation', 'instant loans', 'unsecured loans', 'car title loans', 'quick cash'],
              ['Need money fast? Get {item} approved in {n} minutes with no credit check.',
               '{Item} up to ${price}0 deposited into your account today.',
               'Apply for {item} online at {link}, even with a bad credit history.',
               'Compare {item} lenders and pay less: rates from {pct}% APR.',
               'Bills piling up? {Item} and {item2} made simple.'],
              ['cash', 'loan', 'payday', 'credit', 'money', 'lend'], ['-now', 'fast', '-quick', 'point', 'store', '4u']),
    'replica': (['replica rolex', 'fake omega watches', 'louis vuitton bags', 'gucci handbags', 'cheap ugg boots',
                 'oakley sunglasses', 'tiffany jewelry', 'breitling replica', 'chanel purses', 'nike air max',
                 'prada outlet', 'cartier replica'],
                ['Swiss made {item} at {pct}% off retail with free shipping worldwide.',
                 'Authentic looking {item} from ${price}, order at {link}.',
                 'Wholesale {item} and {item2} direct from the factory.',
                 'Top quality {item}: nobody will ever know the difference!',
                 'Clearance sale on {item} this week only, {link}.'],
                ['replica', 'luxury', 'brand', 'designer', 'outlet', 'watch'], ['-store', 'mall', '-cheap', 'zone', '-sale', 'hub']),
}
SPAM_TLD = ['biz', 'info', 'ru', 'cn', 'net', 'com', 'in', 'pl']
STUFF = ['buy {i}', 'cheap {i}', '{i} online', 'discount {i}', 'order {i}', 'best {i}', '{i} sale', 'generic {i}', '{i} price']


def spam_block(rng, themes, hosts, target):
    """Parts of injected spam, (html, words), of at least `target` words in all: paragraphs of spam
    sentences with links, link lists, stuffed tag lines, headings."""
    parts, count = [], 0

    def link(item):
        return '<a href="http://%s/%s.html">%s</a>' % (rng.choice(hosts), slugify(item), G.esc(item))
    while count < target:
        items, shapes = SPAM_THEMES[rng.choice(themes)][:2]
        shape = rng.random()
        if shape < 0.6:
            sents = []
            for _ in range(rng.randint(2, 5)):
                i1, i2 = rng.sample(items, 2)
                s = rng.choice(shapes).replace('{link}', '\x00')
                s = G.esc(s.format(item=i1, Item=i1.capitalize(), item2=i2, n=rng.randint(2, 90), pct=rng.choice([30, 50, 70, 80, 90]),
                                   price=rng.choice(['0.79', '1.20', '2.50', '49', '99', '5'])))
                sents.append(s.replace('\x00', link(i1)))
            html = '<p>%s</p>' % ' '.join(sents)
        elif shape < 0.8:
            html = '<ul class="%s">%s</ul>' % (rng.choice(['links', 'partners', 'sponsors']), ''.join(
                '<li>%s</li>' % link(rng.choice(STUFF).format(i=i)) for i in rng.sample(items, rng.randint(3, 6))))
        elif shape < 0.9:
            i = rng.choice(items)
            html = '<p class="tags">%s: %s</p>' % (rng.choice(['Tags', 'Keywords', 'Popular']), ', '.join(
                link(f.format(i=i)) for f in rng.sample(STUFF, rng.randint(4, 8))))
        else:
            i = rng.choice(items)
            html = '<h2>%s</h2>' % G.esc(rng.choice(['Buy %s Online', 'Order %s Now', '%s - Best Prices', '%s Sale']) % i.title())
        parts.append((html, len(re.sub(r'<[^>]+>', ' ', html).split())))
        count += parts[-1][1]
    return parts


def spam_for(rng, themes, hosts, orig_words, ratio):
    """Spam of about ratio x orig_words words, never outside 3.2x .. 9.8x (a last part that overshoots
    is dropped, and short headings make up what is missing)."""
    parts = spam_block(rng, themes, hosts, int(orig_words * ratio))
    count = sum(c for _, c in parts)
    while count > 9.8 * orig_words and len(parts) > 1:
        count -= parts.pop()[1]
    while count < 3.2 * orig_words:
        html = '<h2>%s</h2>' % G.esc('%s Online' % rng.choice(SPAM_THEMES[themes[0]][0]).title())
        parts.append((html, len(html[4:-5].split())))
        count += parts[-1][1]
    return ''.join(h for h, _ in parts)


# ---------------------------------------------------------------- one seed

class Seed:
    """What the generator planned for one seed, and the phenomenon given to it."""

    def __init__(self, tm_id, coll, times, kind, thread, other, site, scen, card, rng, other_hosts):
        self.tm_id, self.coll, self.times, self.kind, self.thread, self.other = tm_id, coll, list(times), kind, thread, other
        self.site0, self.scen, self.rng, self.other_hosts = site, scen, rng, other_hosts
        self.phen, self.variant = card  # the phenomenon (None: an ordinary seed) and its variant ('t0', 'temporary', '')
        # the seed's URI as build() makes it
        self.path = '/' if kind in ('front', 'blog') else '/news/%s.html' % re.sub(
            r'[^a-z0-9]+', '-', thread[0]['title'].lower()).strip('-')[:50]
        self.urir = '%s://%s%s%s' % ('https' if site['https'] else 'http', 'www.' if site['www'] else '', site['host'], self.path)
        self.c, self.e = None, None  # the phenomenon's window: captures c .. e-1
        self.gen = {}                # the generator's capture events of this seed, by time
        self.bodies = {}             # (URI, time) -> body of its 200 responses

    def site_at(self, i):
        i = min(i, len(self.times) - 1)
        while i >= 0:
            ev = self.gen.get(self.times[i])
            if ev:
                return ev[2][5] if ev[1] == 'resp' else ev[2][4]
            i -= 1
        return self.site0

    def content_at(self, i):
        """The generator's on-topic page body at capture i (the last one before it, where it had a non-200)."""
        for j in range(min(i, len(self.times) - 1), -1, -1):
            ev = self.gen.get(self.times[j])
            if ev and ev[1] == 'revisit':
                return self.bodies[(ev[2][2], ev[2][3])]
            if ev and ev[2][1] == 200:
                return ev[2][4]
        raise ValueError('no on-topic capture before %d for %s' % (i, self.urir))


class Captures:
    """The new captures of one phenomenon seed: WARC events and label rows."""

    def __init__(self, S):
        self.S, self.events, self.rows, self.prev, self.targets = S, [], [], {}, 0
        self.used = {(canon(S.urir), t) for t in S.times}

    def free(self, u, t):
        while (canon(u), t) in self.used:
            t += seconds(1)
        self.used.add((canon(u), t))
        return t

    def row(self, u, when, label, scen):
        S = self.S
        urim = 'http://archive.example.org/%s/%s/%s' % (S.coll, G.ts14(when), u)
        self.rows.append((S.tm_id, G.ts14(when), urim, label, scen, 'phen:' + S.phen, KIND_OF[scen] if label == 0 else ''))

    def page(self, u, when, html, site, label=None, scen=None, key=None):
        """A 200 HTML capture (a revisit when the payload is that of the last one of this URI), with a gold
        row unless label is None. With a key, the last page of the same key is sent again one time in four."""
        body = html if isinstance(html, bytes) else G.encode_body(html, site)
        prev = self.prev.get(u)
        if key is not None and prev and prev['key'] == key and self.S.rng.random() < 0.25:
            body = prev['body']
        digest = G.b32sha1(body)
        if prev and prev['digest'] == digest:
            self.events.append((when, 'revisit', (u, None, prev['u'], prev['when'], site)))
        else:
            self.events.append((when, 'resp', (u, 200, 'OK', 'text/html', body, site, None)))
            self.prev[u] = dict(body=body, digest=digest, u=u, when=when, key=key)
        if label is not None:
            self.row(u, when, label, scen)
        else:
            self.targets += 1

    def redirect(self, u, when, status, loc, site, style, label=None, scen=None):
        body = REDIRECT_BODY[style].format(s=status, r=REASON[status], u=loc).encode()
        self.events.append((when, 'resp', (u, status, REASON[status], 'text/html', body, site, ['Location: ' + loc])))
        if label is not None:
            self.row(u, when, label, scen)
        else:
            self.targets += 1


def window(S, t0_len=None):
    """Captures c .. e-1 carry the phenomenon: from some capture on to the end, or (variant 'temporary')
    for 1-3 captures, or (variant 't0') from the first capture: to the end, or for t0_len captures."""
    rng, n = S.rng, len(S.times)
    if S.variant == 't0':
        return (0, n) if not t0_len else (0, min(rng.randint(1, t0_len), n - 2))
    if S.variant == 'temporary' and n >= 3:  # and then the page comes back
        c = rng.randint(1, n - 2)
        return c, min(n - 1, c + rng.randint(1, 3))
    return rng.randint(1, n - 1), n


def ph_redirect_away(S, C):
    """The seed 301/302s to a parking host or to an unrelated site (sometimes via a second 301 to the
    https or www name of that host); 3xx rows label 0, the target captured 1-90 s later without a row."""
    rng = S.rng
    S.c, S.e = window(S)
    chain = rng.random() < 0.3
    status, mixed, style = rng.choice([301, 302]), rng.random() < 0.2, rng.randrange(len(REDIRECT_BODY))
    if rng.random() < 0.55:  # a parking or domain-sale host
        brand = rng.choice(PARKERS)
        ph = brand.lower().replace(' ', '')
        ph = rng.choice(['%s.com', 'park.%s.net', 'lander.%s.com', '%s.net']) % ph
        first = rng.choice(['http://%s/?domain=%s', 'http://%s/park/%s', 'http://%s/buy/%s?src=expired',
                            'http://%s/lander/%s.html']) % (ph, S.site0['host'])
        tsite, pstyle, sale = plain_site(rng), rng.randrange(4), rng.choice(PARK_SALE)
        target_html = lambda i, when: parked_html(rng, S.site0['host'], brand, rng.sample(PARK_GENERIC, rng.randint(6, 12)),
                                                  when, pstyle, sale)
    else:  # an unrelated site: an article of another subject in that site's template
        tsite = other_site(rng, S.other_hosts)
        a = rng.choice(S.other)
        first = 'http://%s%s' % (tsite['host'], rng.choice(['/', '/?from=%s' % S.site0['host'], '/articles/%s.html' % slugify(a['title'])[:40]]))
        st = {'k': S.other.index(a)}

        def target_html(i, when):
            if rng.random() < 0.15:  # the other site goes on with its own news
                st['k'] = (st['k'] + 1) % len(S.other)
            art = S.other[st['k']]
            return G.page(tsite, art['title'], G.article_html(art, when, skin=tsite['skin']), when, rng,
                          sidebar=[x['title'] for x in S.other if x is not art][:3] if rng.random() < 0.5 else None)
    final = first
    if chain:  # the other host sends http to https, or to its www name
        host = first.split('/')[2]
        final = first.replace('http://', 'https://', 1) if rng.random() < 0.5 else first.replace('://' + host, '://www.' + host, 1)
    for i in range(S.c, S.e):
        when = S.times[i]
        C.redirect(S.urir, when, rng.choice([301, 302]) if mixed else status, first, S.site_at(i), style, 0, 'redirect-away')
        if chain:
            t = C.free(first, when + seconds(rng.randint(1, 40)))
            C.redirect(first, t, 301, final, tsite, rng.randrange(len(REDIRECT_BODY)))
            t = C.free(final, t + seconds(rng.randint(1, 50)))
        else:
            t = C.free(final, when + seconds(rng.randint(1, 90)))
        C.page(final, t, target_html(i, t), tsite)


def ph_redirect_same(S, C):
    """The seed 301/302s to its own new URL (https, www added or dropped, or a new path); the target, captured
    1-90 s later, has the page the generator would have had. 3xx rows label 1; the target gets a row (label
    1) only when it is the same page under another spelling."""
    rng = S.rng
    S.c, S.e = window(S)
    u = S.urir
    ways = (['https'] if u.startswith('http://') else []) + ['www', 'path', 'path']
    way = rng.choice(ways)
    if way == 'https':
        target = u.replace('http://', 'https://', 1)
        if rng.random() < 0.3:  # and the www name changes too
            target = target.replace('://www.', '://', 1) if '://www.' in target else target.replace('://', '://www.', 1)
    elif way == 'www':
        target = u.replace('://www.', '://', 1) if '://www.' in u else u.replace('://', '://www.', 1)
    else:
        root = u.split('/', 3)
        root = '%s//%s' % (root[0], root[2])
        if rng.random() < 0.3:
            root = root.replace('http://', 'https://')
        when = S.times[S.c]
        if S.path == '/':
            newpath = rng.choice(['/home/', '/en/', '/news/', '/portal/', '/site/index.php', '/main.asp'])
        else:
            slug = S.path[len('/news/'):-len('.html')]
            newpath = rng.choice(['/%d/%02d/%s/' % (when.year, when.month, slug), '/article.php?id=%d' % rng.randint(100, 99999),
                                  '/stories/%s' % slug, '/news/%s' % slug, '/archive/%d/%s.htm' % (when.year, slug[:30])])
        target = root + newpath
    same_page = canon(target) == canon(u)
    status, style = rng.choice([301, 301, 302]), rng.randrange(len(REDIRECT_BODY))
    for i in range(S.c, S.e):
        when = S.times[i]
        site = S.site_at(i)
        C.redirect(u, when, status, target, site, style, 1, 'redirect-same')
        t = C.free(target, when + seconds(rng.randint(1, 90)))
        if same_page:  # the same page under another spelling: a gold row, as the generator's www variants
            C.page(target, t, S.content_at(i), site, 1, 'redirect-same')
        else:
            C.page(target, t, S.content_at(i), site)


def ph_frames(S, C):
    """Domain forwarding with masking: the seed is a frameset or a full-page iframe of the page on another
    host, which is captured 1-90 s later (the generator's page, in the site's template). Label 1."""
    rng = S.rng
    S.c, S.e = window(S)
    user = re.sub(r'[^a-z]', '', S.site0['name'].lower())[:rng.randint(5, 12)] + rng.choice(['', str(rng.randint(1, 99))])
    path = S.path if S.path != '/' else rng.choice(['/', '/index.html', '/home.htm'])
    form = rng.randrange(3)
    if form == 0:
        url = 'http://%s/~%s%s' % (rng.choice(ISPS), user, path)
    elif form == 1:
        url = 'http://%s.%s%s' % (user, rng.choice(FREEHOSTS), path)
    else:
        url = 'http://www.%s%s.%s%s' % (user, rng.choice(['online', 'web', 'site', 'news']), rng.choice(HOST_TLD), path)
    F = {'style': rng.choice(['frameset', 'frameset', 'iframe-css', 'iframe-attr']), 'noframes': rng.choice(NOFRAMES),
         'rows': rng.choice(['rows="100%,*"', 'rows="100%,*"', 'cols="100%,*"', 'rows="*,0"']), 'two': rng.random() < 0.4,
         'meta': rng.choice(['', '<meta name="description" content="">',
                             '<meta name="keywords" content="%s">' % G.esc(', '.join(topic_terms(S.thread, rng, 4)))])}
    title = rng.choice([S.site0['name'], S.thread[0]['title'], S.site0['host'], '', S.site0['name'] + ' - Home'])
    for i in range(S.c, S.e):
        when = S.times[i]
        site = S.site_at(i)
        C.page(S.urir, when, frames_html(F, url, title), site, 1, 'frames', key='frames')
        t = C.free(url, when + seconds(rng.randint(1, 90)))
        C.page(url, t, S.content_at(i), site)


def ph_jsapp(S, C):
    """The page becomes (or is from t0) a JavaScript app whose stories are in inline JSON. Label 1."""
    rng = S.rng
    S.c, S.e = window(S)
    A = app_settings(S, S.site0, rng)
    st = {}
    for i in range(S.c, S.e):
        site = dict(S.site_at(i), charset='utf-8')  # apps are UTF-8: their JSON must not get character references
        stories = app_stories(S, i, st, rng)
        key = tuple((a['id'], len(ps)) for a, ps in stories)
        C.page(S.urir, S.times[i], app_html(A, site, stories, S.times[i], rng), site, 1, 'jsapp', key=key)


def ph_shell(S, C):
    """An empty JavaScript shell: mount point, bundles, maybe a <noscript> line. Label 0 (blank)."""
    rng = S.rng
    S.c, S.e = window(S)
    A = {'framework': rng.choice(['react', 'vue', 'angular', 'next', 'loader']), 'hash': hexid(rng, 8),
         'cdn': rng.choice(['jsdelivr-mirror.net', 'statichost.io', 'appcdn.com']), 'defer': rng.choice(['', ' defer']),
         'noscript': rng.choice(NOSCRIPT) if rng.random() < 0.6 else '', 'title': rng.choice(SHELL_TITLES),
         'lang': rng.choice(['en', 'en', 'de', 'fr', 'es'])}
    for i in range(S.c, S.e):
        site = dict(S.site_at(i), charset='utf-8')
        C.page(S.urir, S.times[i], shell_html(A, site, rng), site, 0, 'shell', key='shell')


def ph_drift(S, C):
    """The front page takes new stories of another subject one at a time, at the top; the oldest drops off
    the bottom. On-topic while one original story is left."""
    rng = S.rng
    k = 4 if len(S.thread) >= 4 and len(S.other) >= 4 and rng.random() < 0.5 else 3
    orig, new = S.thread[:k], list(S.other)
    holds = [rng.choice([1, 1, 2]) for _ in range(k - 1)]  # captures between one replacement and the next
    need = 1 + sum(holds) + 3
    t = S.times[-1]
    while len(S.times) < need:  # a short seed: more captures
        t += seconds(rng.randint(86400 * 2, 86400 * 40))
        S.times.append(t)
    n = len(S.times)
    pre = rng.randint(1, n - need + 1)  # captures before the first new story
    sched = [0] * pre
    for j, h in enumerate(holds, 1):
        sched += [j] * h
    j = k
    while len(sched) < n:  # after the last original story: new ones still come now and then
        sched.append(j)
        if len(sched) - pre - sum(holds) >= 3 and j < len(new) and rng.random() < 0.2:
            j += 1
    S.c, S.e = 0, n
    title_mode = rng.choice(['top', 'site'])
    for i, j in enumerate(sched):
        when = S.times[i]
        stories = [new[x] for x in range(min(j, len(new)) - 1, max(0, j - k) - 1, -1)] + orig[:max(0, k - j)]
        stories = stories[:k]
        label = 1 if any(a in orig for a in stories) else 0
        site = S.site_at(i)
        title = stories[0]['title'] if title_mode == 'top' else site['name'] + ' - Latest news'
        html = G.page(site, title, G.listing_html(stories, when), when, rng)
        C.page(S.urir, when, html, site, label, 'on' if j == 0 else 'drift', key=tuple(a['id'] for a in stories))


def ph_injected(S, C):
    """Hacked: the template, title and first paragraph stay, then 3.2-9.8x as many words of spam. Label 0."""
    rng = S.rng
    S.c, S.e = window(S)
    lead = S.thread[0]
    themes = rng.sample(sorted(SPAM_THEMES), rng.choice([1, 1, 2]))
    hosts = []
    for th in themes:
        a, b = SPAM_THEMES[th][2:]
        hosts += ['%s%s.%s' % (rng.choice(a), rng.choice(b), rng.choice(SPAM_TLD)) for _ in range(rng.randint(1, 3))]
    orig_words = len((lead['title'] + ' ' + lead['paras'][0]).split())
    ratio = rng.uniform(3.2, 9.5)
    spam = spam_for(rng, themes, hosts, orig_words, ratio)
    where = rng.choice(['after', 'after', 'wrapped'])
    title = lead['title'] if rng.random() < 0.6 else '%s | %s' % (
        rng.choice(['Buy %s Online', 'Cheap %s']) % SPAM_THEMES[themes[0]][0][0].title(), lead['title'])
    for i in range(S.c, S.e):
        when, site = S.times[i], S.site_at(i)
        extra = spam if where == 'after' else '<div class="%s">%s</div>' % (rng.choice(['entry-extra', 'related', 'wp-footer-links']), spam)
        html = G.page(site, title, G.article_html(lead, when, lead['paras'][:1], extra=extra), when, rng)
        C.page(S.urir, when, html, site, 0, 'injected', key='injected')


def ph_parked_topical(S, C):
    """A parked page whose search links are the site's own topic words; from some capture on, or (t0) for
    the first 1-2 captures before the real content. Label 0 (parked)."""
    rng = S.rng
    S.c, S.e = window(S, t0_len=2)
    brand, style, sale = rng.choice(PARKERS), rng.randrange(4), rng.choice(PARK_SALE)
    generic = rng.random() < 0.3  # a few generic advertisers' terms among the topical ones
    site = plain_site(rng)
    for i in range(S.c, S.e):
        terms = topic_terms(S.thread, rng, rng.randint(6, 11))
        if generic:
            terms[-2:] = rng.sample(PARK_GENERIC, 2)
        C.page(S.urir, S.times[i], parked_html(rng, S.site0['host'], brand, terms, S.times[i], style, sale), site, 0,
               'parked-topical', key='parked')


# ---------------------------------------------------------------- what real collections showed

def decoded(body, site):
    """A generator page body (bytes in the site's charset) as text."""
    cs = site['charset']
    return body.decode('cp1252' if cs == 'windows-1252' else 'latin-1' if cs == 'iso-8859-1' else 'utf-8')


def retitle(html, title):
    return re.sub(r'<title>.*?</title>', lambda m: '<title>%s</title>' % G.esc(title), html, count=1, flags=re.S)


def topic_word(S):
    """The thread's most frequent content word of its titles, capitalized: what a live page is titled by."""
    freq = Counter(w.strip("'-") for a in S.thread for w in G.words(a['title']))
    for w, _ in freq.most_common():
        if len(w) > 3 and w.lower() not in G.STOP:
            return w.title()
    return S.thread[0]['title'].split()[0]


def fresh_articles(S, rng, k):
    """k articles of the collection's subject that are not in the seed's thread."""
    mine = {a['id'] for a in S.thread}
    pool = [a for a in S.pool if a['id'] not in mine]
    return rng.sample(pool, min(k, len(pool)))


def years_later(t, n):
    try:
        return t.replace(year=t.year + n)
    except ValueError:  # 29 February
        return t.replace(year=t.year + n, day=28)


def ph_moved(S, C):
    """The page's address stops serving it: from some capture on, every capture holds one and the same old
    article of the collection's subject, published at another address of the site, in the site's later frame
    (its footer and stamps 3-6 years after the capture). The article's canonical link, og:url and meta url
    name its own address (in some seeds only og:url or only the canonical link, in some none). The page was a
    live page titled '<topic> live | <site>'; the article is titled '<title> - <topic> | <site>', sharing the
    topic word and the site's name with it. Label 1, then 0 (redirected)."""
    rng = S.rng
    n = len(S.times)
    c = rng.randint(max(2, n // 3), n - 2)
    S.c, S.e = 0, n
    site0 = S.site_at(0)
    name, topic = site0['name'], topic_word(S)
    live_title = rng.choice(['%s live', 'Live: %s', '%s: latest updates', '%s blog']) % topic + ' | ' + name
    art = fresh_articles(S, rng, 1)[0]
    pub = S.times[0] - dt.timedelta(days=rng.randint(200, 1500))
    host = ('www.' if site0['www'] else '') + site0['host']
    if rng.random() < 0.3:
        host = rng.choice(['blogs.', 'english.', 'archive.']) + site0['host']
    addr = 'http://%s/%d/%02d/%s.html' % (host, pub.year, pub.month, slugify(art['title'])[:50])
    evidence = rng.choices(['all', 'canonical', 'og', 'none'], [0.45, 0.2, 0.2, 0.15])[0]
    tags = {'all': '<link rel="canonical" href="{u}"><meta property="og:url" content="{u}"><meta name="url" content="{u}">',
            'canonical': '<link rel="canonical" href="{u}">', 'og': '<meta property="og:url" content="{u}">',
            'none': ''}[evidence].format(u=G.esc(addr))
    frame = dict(S.site_at(c), skin=rng.choice(['div', 'html5', 'table']), nav=rng.sample(G.NAV, 8))
    later = years_later(S.times[c], rng.randint(3, 6))
    title = '%s - %s | %s' % (art['title'], topic, name)
    body = G.page(frame, title, G.article_html(art, pub, skin=frame['skin']), later, rng)
    moved = body.replace('<head>', '<head>' + tags, 1)
    for i in range(n):
        when, site = S.times[i], S.site_at(i)
        if i < c:
            C.page(S.urir, when, retitle(decoded(S.content_at(i), site), live_title), site, 1, 'on')
        else:
            C.page(S.urir, when, moved, frame, 0, 'moved')


# Arabic that a bilingual site writes beside its English: function words (from the usual stop lists) and
# words of news about politics and rights, from which each site draws its own vocabulary.
AR_FUNCTION = 'في من على إلى عن مع هذا هذه التي الذي أن إن كان قد لا ما بين بعد قبل حتى كل أو ثم عند منذ خلال حول'.split()
AR_WORDS = ('مصر القاهرة الحكومة الرئيس الشعب الثورة الانتخابات البرلمان الشرطة المتظاهرين ميدان التحرير حقوق '
            'الإنسان الحرية العدالة الدستور الجيش المجلس العسكري الأحزاب السياسية المعارضة الصحافة الإعلام '
            'الاقتصاد الأسعار العمال الطلاب الجامعة المحكمة القضاء النيابة الاعتقال التعذيب السجون المرأة الشباب '
            'المجتمع المدني المنظمات الدولية وزير الداخلية الخارجية الدولة القانون الطوارئ الأمن الاحتجاجات '
            'المظاهرات الإضراب السلطة الديمقراطية الإصلاح الفساد الفقر البطالة التعليم الصحة الأزمة الحوار '
            'المفاوضات السلام الحرب العرب العربية الأخبار تقرير بيان مؤتمر صحفي مقال رأي مدونة تعليق اليوم أمس '
            'الأسبوع الشهر العام قال أعلن أكد طالب رفض دعا أضاف أشار أوضح نفى كشف مصدر مسؤول شهود ضحايا '
            'عائلات أطفال نساء مواطنين مدينة قرية شارع محافظة الإسكندرية السويس سيناء').split()


def arabic_paras(rng, vocab, words):
    """Paragraphs of about `words` Arabic words: sentences of the site's vocabulary and function words."""
    out, n = [], 0
    while n < words:
        sents = []
        for _ in range(rng.randint(2, 4)):
            k = rng.randint(8, 14)
            sents.append(' '.join(rng.choice(AR_FUNCTION) if rng.random() < 0.3 else rng.choice(vocab) for _ in range(k)) + '.')
            n += k
        out.append('<p dir="rtl" lang="ar">%s</p>' % ' '.join(sents))
    return out


def english_words(html):
    body = re.sub(r'<(script|style)\b.*?</\1>', ' ', html, flags=re.S | re.I)
    return len(re.sub(r'<[^>]+>', ' ', body).split())


def ph_bilingual(S, C):
    """A site that writes English and Arabic: every capture holds both. At t0 Arabic is 5-35% of the words and
    later 32-86% (or, in some seeds, the other way round), so the page's main language changes while neither
    goes. The Arabic paragraphs are interleaved with the English ones, or in a block of posts of their own
after them or before them. Label 1."""
    rng = S.rng
    n = len(S.times)
    S.c, S.e = 0, n
    vocab = rng.sample(AR_WORDS, 60)
    grows = rng.random() < 0.6
    place = rng.choice(['interleaved', 'after', 'before'])
    for i in range(n):
        when, site = S.times[i], S.site_at(i)
        share = (rng.uniform(0.05, 0.35) if i == 0 else rng.uniform(0.32, 0.86)) if grows else \
            (rng.uniform(0.6, 0.86) if i == 0 else rng.uniform(0.14, 0.45))
        html = decoded(S.content_at(i), site)
        en = english_words(html)
        ar = arabic_paras(rng, vocab, int(en * share / (1 - share)))
        if place == 'interleaved':  # an Arabic paragraph after each English one, the rest at the end
            parts = html.split('</p>')
            k = 0
            for j in range(len(parts) - 1):
                if k < len(ar):
                    parts[j] += '</p>' + ar[k]
                    k += 1
                else:
                    parts[j] += '</p>'
            html = ''.join(parts[:-1]) + ''.join(ar[k:]) + parts[-1]
        else:  # the Arabic posts in a block of their own, after the English ones or before them
            at = html.rfind('</p>') + 4 if place == 'after' else html.find('<p')
            html = html[:at] + '<div class="posts-ar" dir="rtl">%s</div>' % ''.join(ar) + html[at:]
        C.page(S.urir, when, html, dict(site, charset='utf-8'), 1, 'bilingual')


def ph_rotate_thin(S, C):
    """A blog's front page that showed 3-5 posts of 2-3 paragraphs at t0 and later shows its newest posts
    only, one to three of one or two paragraphs: new stories of the collection's subject at most captures, in
    the same frame, often a third of t0's text or less. Label 1."""
    rng = S.rng
    n = len(S.times)
    S.c, S.e = 0, n
    posts = list(S.thread) + fresh_articles(S, rng, 3 * n)
    shown = posts[:rng.randint(3, 5)]
    rest = posts[len(shown):]
    titled = rng.random() < 0.5
    for i in range(n):
        when, site = S.times[i], S.site_at(i)
        if i > 0:
            k = rng.choice([1, 1, 2, 2, 3])
            if rest and (i == 1 or rng.random() < 0.8):  # new posts since the last capture
                shown = rest[:k]
                rest = rest[k:] or posts[:]
        paras = rng.choice([2, 3]) if i == 0 else rng.choice([1, 2])
        main = ''.join(G.article_html(a, when, a['paras'][:paras], skin=site['skin']) for a in shown)
        title = site['name'] + ' | Blog' if titled else shown[0]['title']
        C.page(S.urir, when, G.page(site, title, main, when, rng), site, 1, 'rotate-thin',
               key=tuple(a['id'] for a in shown))


def ph_hidden_text(S, C):
    """A social-network-style page whose posts sit in <code class="hidden_elem"><!-- ... --></code> blocks that
    its scripts show (the whole timeline hidden from an HTML parser), a small bar of the site's name visible;
    from t0, or from a redesign on. Label 1."""
    rng = S.rng
    S.c, S.e = window(S)
    if rng.random() < 0.5:
        S.c = 0
    for i in range(S.c, S.e):
        when, site = S.times[i], S.site_at(i)
        html = decoded(S.content_at(i), site)
        head = re.search(r'<head>.*?</head>', html, re.S).group(0)
        inner = re.search(r'<body>(.*)</body>', html, re.S).group(1)
        cuts = [m.end() for m in re.finditer(r'</div>', inner)]
        cuts = sorted(rng.sample(cuts, min(len(cuts), rng.randint(0, 2))))
        parts, last = [], 0
        for x in cuts + [len(inner)]:
            if inner[last:x].strip():
                parts.append(inner[last:x])
            last = x
        blocks = ''.join('<code class="hidden_elem" id="u_0_%d"><!-- %s --></code>' % (
            k + 1, part.replace('-->', '--&gt;')) for k, part in enumerate(parts))
        page = ('<!DOCTYPE html><html lang="en">%s<body class="timeline"><div id="blueBar"><a href="/">%s</a>'
                '<form action="/search"><input name="q" placeholder="Search"></form></div><div id="globalContainer">'
                '%s<script>bigPipe.onPageletArrive({id:"pagelet_timeline",phase:%d,display_dependency:[]});</script>'
                '</div></body></html>') % (head, G.esc(site['name']), blocks, rng.randint(1, 9))
        C.page(S.urir, when, page, site, 1, 'hidden-text')


SPLASH_LANGS = [('English', '/en/'), ('Français', '/fr/'), ('Español', '/es/'), ('العربية', '/ar/'), ('Deutsch', '/de/')]


def ph_splash(S, C):
    """The site's entrance instead of its page, for 1-3 captures or from some capture on: a language choice
    (flag images linking to the site's language versions, the names of the languages at most) or a campaign
    page (a banner linking into the site, in the site's frame), titled by the site's name. Label 1."""
    rng = S.rng
    S.c, S.e = window(S)
    site0 = S.site_at(0)
    campaign = rng.random() < 0.5
    title = rng.choice(['{name}', '{name}: {camp}', 'Welcome - {name}']).format(
        name=site0['name'], camp=rng.choice(['Campaign 2007', '10 years', 'Join us', 'Special']))
    named = rng.random() < 0.5
    for i in range(S.c, S.e):
        when, site = S.times[i], S.site_at(i)
        if campaign:
            main = '<div class="campaign"><a href="/%s/"><img src="/img/banner-%d.jpg" alt="" width="760" height="420"></a></div>' % (
                rng.choice(['campaign', 'special', 'anniversary']), when.year)
            html = G.page(site, title, main, when, rng)
        else:
            langs = rng.sample(SPLASH_LANGS, rng.randint(2, 3))
            links = ''.join('<a href="%s"><img src="/img/flag%s.gif" alt="">%s</a> ' % (
                u, u.strip('/'), '<br>' + G.esc(l) if named else '') for l, u in langs)
            html = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>%s</title></head><body style="background:'
                    'url(/img/intro.jpg)"><div align="center" style="padding-top:400px">%s</div></body></html>') % (
                G.esc(title), links)
        C.page(S.urir, when, html, dict(site, charset='utf-8'), 1, 'splash', key='splash')


def ph_thin_t0(S, C):
    """A page of next to no words (a Flash intro: an embed, the site's name in the title, an "Enter" link), so
    that no capture has the words to be t0, until the account is suspended, the site is under maintenance or
    its database fails. Thin captures label 1, the message pages 0."""
    rng = S.rng
    n = len(S.times)
    S.c, S.e = 0, n
    c = rng.randint(1, n - 1)
    kind = rng.choice(['suspended', 'construction', 'dberror'])
    variant = rng.randrange(2)
    site0 = S.site_at(0)
    intro = ('<!DOCTYPE html><html><head><title>%s</title></head><body><div align="center"><object width="800" '
             'height="600" data="/intro.swf"><embed src="/intro.swf" width="800" height="600"></object><p>'
             '<a href="/home.html">%s</a></p></div></body></html>') % (G.esc(site0['name']), rng.choice(['Enter', 'Skip intro', '']))
    for i in range(n):
        when, site = S.times[i], S.site_at(i)
        if i < c:
            C.page(S.urir, when, intro, site, 1, 'thin-t0', key='intro')
        else:
            html, _ = G.off_page(kind, site, when, rng, variant)
            C.page(S.urir, when, html, site, 0, kind, key=kind)


PHENOMENA = {'redirect-away': ph_redirect_away, 'redirect-same': ph_redirect_same, 'frames': ph_frames,
             'jsapp': ph_jsapp, 'shell': ph_shell, 'drift': ph_drift, 'injected': ph_injected,
             'parked-topical': ph_parked_topical, 'moved': ph_moved, 'bilingual': ph_bilingual,
             'rotate-thin': ph_rotate_thin, 'hidden-text': ph_hidden_text, 'splash': ph_splash, 'thin-t0': ph_thin_t0}
# Which seeds can take a card: drift needs a front page (an article does not change subject story by story);
# parked-topical at t0 needs three captures (1-2 parked, then the real content).
ELIGIBLE = {'drift': lambda kind, n, v: kind in ('front', 'blog'),
            'parked-topical': lambda kind, n, v: v != 't0' or n >= 3,
            'moved': lambda kind, n, v: kind in ('front', 'blog', 'live') and n >= 4,
            'rotate-thin': lambda kind, n, v: kind in ('front', 'blog') and n >= 3,
            'bilingual': lambda kind, n, v: n >= 3, 'splash': lambda kind, n, v: n >= 3,
            'thin-t0': lambda kind, n, v: n >= 3, 'hidden-text': lambda kind, n, v: n >= 2}


# ---------------------------------------------------------------- hooks into the generator

def consume_draws(rng, events, per_file=700):
    """Advance rng as gen_collection.write_warcs() would while writing these events (record ids, and the
    draw that decides on a metadata record), without writing anything."""
    events = sorted(events, key=lambda e: e[0])
    for fi in range(0, len(events), per_file):
        rng.getrandbits(128)  # warcinfo
        for when, kind, p in events[fi:fi + per_file]:
            if kind == 'resp':
                rng.getrandbits(128)
                rng.getrandbits(128)  # response and request
                if p[1] == 200 and p[3] == 'text/html' and rng.random() < 0.3:
                    rng.getrandbits(128)  # metadata
            else:
                rng.getrandbits(128)  # revisit


class Phenomena:
    """Gives phenomena to seeds as build() plans them, and puts their captures into its WARC events."""

    def __init__(self, seed, scale):
        self.seed, self.scale = seed, scale
        self.sizes = [(coll, max(4, int(n * scale))) for coll, _, n in G.SETTINGS['cats']]
        self.deck_rng = random.Random('phen-deck:%d' % seed)
        self.seeds, self.times, self.pending, self.deck = [], None, [], []
        self.events = Counter()
        self.other_hosts = set()  # hosts of the unrelated sites that redirect-away seeds go to, one each
        self.articles, self.pools = None, {}

    def install(self):
        capture_times, seed_plan, write_warcs = G.capture_times, G.seed_plan, G.write_warcs

        def capture_times_(rng, n, start, end):
            self.times = capture_times(rng, n, start, end)
            return self.times

        def seed_plan_(rng, prof, thread, other_thread, site, n):
            plan = seed_plan(rng, prof, thread, other_thread, site, n)
            self.planned(thread, other_thread, site, plan)
            return plan

        def write_warcs_(out, coll, events, rng, stats, per_file=700):
            consume_draws(rng, events, per_file)
            events = self.splice(coll, events)
            write_warcs(out, coll, events, random.Random('warc:%d:%s' % (self.seed, coll)), stats, per_file)
            for when, kind, p in events:
                self.events['revisit' if kind == 'revisit' else '%d %s' % (p[1], p[3])] += 1
        G.capture_times, G.seed_plan, G.write_warcs = capture_times_, seed_plan_, write_warcs_

    def planned(self, thread, other, site, plan):
        tm_id = len(self.seeds) + 1
        k, ci = tm_id, 0
        while k > self.sizes[ci][1]:
            k -= self.sizes[ci][1]
            ci += 1
        coll, size = self.sizes[ci]
        if k == 1:  # a new collection: a new deck of phenomena, one card per seed
            deck = []
            for p, share in SHARES.items():
                m = int(size * share + 0.5)
                t0, temp = int(m * T0_SHARE.get(p, 0) + 0.5), int(m * TEMPORARY.get(p, 0) + 0.5)
                deck += [(p, 't0')] * t0 + [(p, 'temporary')] * temp + [(p, '')] * (m - t0 - temp)
            # dealt over the first 7/8 of the seeds: a card whose seed cannot take it (planned off-topic, or
            # not eligible) goes to the next seed that can, and the last seeds leave room for those
            span = max(len(deck), size - max(2, size // 8))
            self.deck = deck + [None] * (span - len(deck))
            self.deck_rng.shuffle(self.deck)
            self.pending = []
        if k <= len(self.deck) and self.deck[k - 1]:
            self.pending.append(self.deck[k - 1])
        kind, _, scen, _ = plan
        card = (None, '')
        if scen.startswith('on:'):  # the generator's off-topic plans stay as they are
            for p in self.pending:
                if ELIGIBLE.get(p[0], lambda *_: True)(kind, len(self.times), p[1]):
                    card = p
                    self.pending.remove(p)
                    break
        self.seeds.append(Seed(tm_id, coll, self.times, kind, thread, other, site, scen, card,
                               random.Random('phen:%d:%d' % (self.seed, tm_id)), self.other_hosts))
        self.seeds[-1].pool = self.pool(coll)

    def pool(self, coll):
        """The articles of a collection's category (what moved, rotate-thin draw beside a seed's thread)."""
        if coll not in self.pools:
            if self.articles is None:
                self.articles = [a for a in G.load_articles() if len(a['paras']) >= 3]
            cat = dict((c, cat) for c, cat, _ in G.SETTINGS['cats'])[coll]
            self.pools[coll] = [a for a in self.articles if a['cat'] == cat]
        return self.pools[coll]

    def splice(self, coll, events):
        mine = {canon(S.urir): S for S in self.seeds if S.coll == coll and S.phen}
        of_seed = defaultdict(list)  # canonical seed URI -> indexes of its page events
        for x, ev in enumerate(events):
            if canon(ev[2][0]) in mine:
                of_seed[canon(ev[2][0])].append(x)
        drop, add, refit = set(), [], {}
        for key, S in mine.items():
            for x in of_seed[key]:
                when, kind, p = events[x]
                S.gen[when] = events[x]
                if kind == 'resp' and p[1] == 200:
                    S.bodies[(p[0], when)] = p[4]
            C = Captures(S)
            PHENOMENA[S.phen](S, C)
            lo = S.times[S.c]
            hi = S.times[S.e] if S.e < len(S.times) else None
            S.rows, S.lo, S.hi, S.targets = C.rows, G.ts14(lo), G.ts14(hi) if hi else None, C.targets
            removed = set()
            for x in of_seed[key]:
                when, kind, p = events[x]
                if lo <= when and (hi is None or when < hi):
                    drop.add(x)
                    removed.add((p[0], when))
            # a revisit after the window whose response was taken out: the first becomes a response
            for x in of_seed[key]:
                when, kind, p = events[x]
                if x not in drop and kind == 'revisit' and (p[2], p[3]) in removed:
                    ref = (p[2], p[3])
                    if ref in refit:
                        events[x] = (when, 'revisit', (p[0], None, refit[ref][0], refit[ref][1], p[4]))
                    else:
                        events[x] = (when, 'resp', (p[0], 200, 'OK', 'text/html', S.bodies[ref], p[4], None))
                        refit[ref] = (p[0], when)
            add += C.events
        return [ev for x, ev in enumerate(events) if x not in drop] + add

    def rewrite_labels(self, out):
        """gold.tsv and scenarios.tsv: window rows of phenomenon seeds replaced, a kind column added."""
        with open(os.path.join(out, 'gold.tsv')) as f:
            gold = [l.rstrip('\n').split('\t') for l in f][1:]
        with open(os.path.join(out, 'scenarios.tsv')) as f:
            scen = [l.rstrip('\n').split('\t') for l in f][1:]
        assert len(gold) == len(scen) and all(g[2] == s[0] for g, s in zip(gold, scen))
        with open(os.path.join(out, 'seeds.txt')) as f:
            uris = f.read().split()
        assert uris == [S.urir for S in self.seeds], 'seed URIs differ from build()\'s'
        by_id = defaultdict(list)
        for g, s in zip(gold, scen):
            by_id[int(g[0])].append((int(g[0]), g[1], g[2], int(g[3]), s[2], s[3], KIND_OF[s[2]] if g[3] == '0' else ''))
        rows = []
        for S in self.seeds:
            have = by_id[S.tm_id]
            if S.phen:
                have = [r[:5] + ('phen:' + S.phen, r[6]) for r in have if not (r[1] >= S.lo and (S.hi is None or r[1] < S.hi))]
                have = sorted(have + S.rows, key=lambda r: r[1])
            rows += have
        with open(os.path.join(out, 'gold.tsv'), 'w', newline='') as f:
            f.write('id\tdate\tURI\tlabel\n' + ''.join('%d\t%s\t%s\t%d\n' % r[:4] for r in rows))
        with open(os.path.join(out, 'scenarios.tsv'), 'w', newline='') as f:
            f.write('URI\tlabel\tscenario\tseed\tkind\n' + ''.join('%s\t%d\t%s\t%s\t%s\n' % r[2:] for r in rows))
        return rows

    def write_stats(self, out, rows, gen_stats):
        seeds_by = Counter(('phen:' + S.phen) if S.phen else S.scen.split(':')[0] for S in self.seeds)
        per = defaultdict(Counter)
        for r in rows:
            per[r[5]]['rows'] += 1
            per[r[5]]['label %d' % r[3]] += 1
        phen_seeds = [S for S in self.seeds if S.phen]
        lines = ['# Corpus statistics (phenomena profile, seed %d, scale %g)' % (self.seed, self.scale), '',
                 'gen_collection.py\'s collection with eight phenomena (scripts/phenomena/gen.py).', '',
                 '## Phenomena', '',
                 '| phenomenon | target share | seeds | share | at t0 | temporary | rows of these seeds | label 0 | label 1 '
                 '| rows of the phenomenon (scenario column) | captures without a row (targets, chain 3xx) |',
                 '|---|---|---|---|---|---|---|---|---|---|---|']
        scen_rows = Counter(r[4] for r in rows)
        n_seeds = len(self.seeds)
        for p, share in SHARES.items():
            ss = [S for S in phen_seeds if S.phen == p]
            c = per['phen:' + p]
            lines.append('| %s | %.1f%% | %d | %.1f%% | %d | %d | %d | %d | %d | %d | %d |' % (
                p, 100 * share, len(ss), 100 * len(ss) / n_seeds, sum(S.variant == 't0' for S in ss),
                sum(S.variant == 'temporary' for S in ss), c['rows'], c['label 0'], c['label 1'], scen_rows[p], sum(S.targets for S in ss)))
        lines += ['', '## Seeds', '', '- seeds: %d' % n_seeds] + ['- seeds %s: %d' % kv for kv in sorted(seeds_by.items())]
        lines += ['', '## Captures (WARC records)', '']
        lines += ['- %s: %d' % ('revisits' if k == 'revisit' else 'responses ' + k, v) for k, v in sorted(self.events.items())]
        lines += ['- warc files: %d' % gen_stats['warc files']]
        lab = Counter(r[3] for r in rows)
        lines += ['', '## Labels (gold.tsv rows)', '', '- rows: %d' % len(rows), '- label 0: %d' % lab[0], '- label 1: %d' % lab[1]]
        lines += ['', '## Labelled captures by scenario', ''] + ['- %s: %d' % kv for kv in sorted(Counter(r[4] for r in rows).items())]
        lines += ['', '## Label-0 captures by kind', ''] + ['- %s: %d' % kv for kv in sorted(Counter(r[6] for r in rows if r[3] == 0).items())]
        with open(os.path.join(out, 'STATS.md'), 'w') as f:
            f.write('\n'.join(lines) + '\n')
        return seeds_by, lab


def main():
    global G
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='output folder (created if missing; write into an empty one, outside the repo)')
    ap.add_argument('--seed', type=int, default=None, help='random seed (default: the generator\'s, 20151)')
    ap.add_argument('--scale', type=float, default=1.0, help='seeds per collection: 110, 100, 90 times F')
    ap.add_argument('--shared', default=DEFAULT_SHARED, help='the shared folder holding tools/gen_collection.py '
                    '(default: ../shared beside the repository, %(default)s)')
    a = ap.parse_args()
    repo = os.path.normpath(os.path.join(HERE, '..', '..'))
    if os.path.realpath(os.path.abspath(a.out)).startswith(os.path.realpath(repo) + os.sep):
        ap.error('--out %s is inside the repository; write collections elsewhere (e.g. /tmp/phen/s1)' % a.out)

    sys.path.insert(0, os.path.join(os.path.abspath(a.shared), 'tools'))
    sys.dont_write_bytecode = True  # no __pycache__ in the shared folder
    import gen_collection
    G = gen_collection
    seed = G.DEFAULT_SEED if a.seed is None else a.seed

    t = time.time()
    ph = Phenomena(seed, a.scale)
    ph.install()
    stats = G.build(a.out, seed, a.scale)
    rows = ph.rewrite_labels(a.out)
    seeds_by, lab = ph.write_stats(a.out, rows, stats)
    print(' '.join(['rows=%d' % len(rows), 'label_0=%d' % lab[0], 'label_1=%d' % lab[1], 'seeds=%d' % len(ph.seeds)] +
                   ['seeds_%s=%d' % kv for kv in sorted(seeds_by.items())] + ['warc_files=%d' % stats['warc files']]))
    print('%.1f s' % (time.time() - t), file=sys.stderr)


if __name__ == '__main__':
    main()
