#!/usr/bin/env python3
"""Writes the test bed's fixture feeds and media into testbed/fixtures/.

Deterministic: same bytes on every run (fixed dates, no randomness), so running it
at every setup is harmless and a hand edit of a generated file shows up in git.
Every URL points at the namespace host feeds.test (or is relative / javascript: /
data: on purpose, in the hostile feed). The two video clips (media/clip.webm,
media/clip.mp4) are committed binaries made once with ffmpeg; they are not written here.
"""

import datetime as dt
import json
import math
import os
import struct
import wave
import zlib
from email.utils import format_datetime
from xml.sax.saxutils import escape

HOST = "http://feeds.test"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
# All item dates are fixed and in the past; the seeded user has purging disabled,
# so they stay however old they get.
BASE = dt.datetime(2026, 10, 1, 12, 0, 0, tzinfo=dt.timezone.utc)


def write(rel, data):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except FileNotFoundError:
        pass
    with open(path, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- media


def png(width, height, pixel):
    """A true-colour PNG; pixel(x, y) -> (r, g, b)."""
    raw = b"".join(
        b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height)
    )

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def ico(png_bytes, size):
    """An ICO file wrapping one PNG image (valid since Windows Vista, read by browsers)."""
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(png_bytes), 6 + 16)
    return header + entry + png_bytes


def wav_tone(path, seconds=1.0, freq=440.0, rate=8000):
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    frames = b"".join(
        struct.pack("<h", int(12000 * math.sin(2 * math.pi * freq * i / rate)))
        for i in range(int(seconds * rate))
    )
    tmp = full + ".tmp"
    with wave.open(tmp, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
    with open(tmp, "rb") as f:
        data = f.read()
    os.remove(tmp)
    write(path, data)
    return len(data)


def media():
    sizes = {}
    red = png(64, 48, lambda x, y: (200, 30, 30))
    gradient = png(320, 200, lambda x, y: (x // 32 * 28, y // 20 * 28, 128))
    cover = png(120, 120, lambda x, y: (20, 90, 160) if (x // 20 + y // 20) % 2 else (240, 200, 40))
    icon = png(16, 16, lambda x, y: (255, 140, 0) if 3 <= x <= 12 and 3 <= y <= 12 else (255, 255, 255))
    for name, data in [
        ("media/red-64x48.png", red),
        ("media/gradient-320x200.png", gradient),
        ("media/cover-120.png", cover),
        ("favicon.ico", ico(icon, 16)),
    ]:
        write(name, data)
        sizes[name] = len(data)
    sizes["media/tone.wav"] = wav_tone("media/tone.wav")
    for clip in ("media/clip.webm", "media/clip.mp4"):
        sizes[clip] = os.path.getsize(os.path.join(ROOT, clip))
    write(
        "embed/player.html",
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Embedded player</title></head>\n"
        "<body style=\"margin:0;background:#222;color:#eee;font:14px sans-serif\">\n"
        "<p id=\"p\">Embedded player on feeds.test</p>\n"
        "<video src=\"/media/clip.webm\" controls width=\"64\" height=\"48\"></video>\n"
        "<script>document.getElementById('p').textContent += ' (script ran inside the frame)';</script>\n"
        "</body></html>\n",
    )
    write(
        "index.html",
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>feeds.test</title>\n"
        "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feeds/tech-news.xml\">\n"
        "</head><body><h1>feeds.test: tt-rss test bed fixtures</h1></body></html>\n",
    )
    return sizes


# ---------------------------------------------------------------- feeds


def rfc822(t):
    return format_datetime(t)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def rss(title, slug, description, items, extra_channel="", namespaces=""):
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:content="http://purl.org/rss/1.0/modules/content/"'
        + (" " + namespaces if namespaces else "") + ">",
        "<channel>",
        f"<title>{escape(title)}</title>",
        f"<link>{HOST}/{slug}/</link>",
        f"<description>{escape(description)}</description>",
        "<language>en</language>",
        extra_channel,
    ]
    for it in items:
        out.append("<item>")
        out.append(f"<title>{it.get('title_xml', escape(it['title']))}</title>")
        out.append(f"<link>{escape(it.get('link', HOST + '/' + slug + '/' + it['guid']))}</link>")
        out.append(f'<guid isPermaLink="false">{escape(it["guid"])}</guid>')
        out.append(f"<pubDate>{rfc822(it['date'])}</pubDate>")
        if it.get("author"):
            out.append(f"<dc:creator>{escape(it['author'])}</dc:creator>")
        for cat in it.get("tags", []):
            out.append(f"<category>{escape(cat)}</category>")
        for enc in it.get("enclosures", []):
            out.append(f'<enclosure url="{escape(enc[0])}" type="{enc[1]}" length="{enc[2]}"/>')
        if it.get("comments"):
            out.append(f"<comments>{escape(it['comments'])}</comments>")
        if it.get("extra"):
            out.append(it["extra"])
        out.append(f"<description><![CDATA[{it['html']}]]></description>")
        out.append("</item>")
    out += ["</channel>", "</rss>", ""]
    return "\n".join(x for x in out if x != "")  + "\n"


def atom(title, slug, items):
    updated = max(it["date"] for it in items)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
        f"<title>{escape(title)}</title>",
        f"<id>{HOST}/feeds/{slug}.xml</id>",
        f'<link rel="alternate" type="text/html" href="{HOST}/{slug}/"/>',
        f'<link rel="self" type="application/atom+xml" href="{HOST}/feeds/{slug}.xml"/>',
        f"<updated>{iso(updated)}</updated>",
        "<author><name>Web Desk</name></author>",
    ]
    for it in items:
        out.append("<entry>")
        out.append(f"<title>{escape(it['title'])}</title>")
        out.append(f"<id>{escape(it['guid'])}</id>")
        out.append(f'<link rel="alternate" type="text/html" href="{HOST}/{slug}/{it["slug"]}"/>')
        for enc in it.get("enclosures", []):
            out.append(f'<link rel="enclosure" href="{escape(enc[0])}" type="{enc[1]}" length="{enc[2]}"/>')
        out.append(f"<published>{iso(it['date'])}</published>")
        out.append(f"<updated>{iso(it['date'])}</updated>")
        if it.get("author"):
            out.append(f"<author><name>{escape(it['author'])}</name></author>")
        for cat in it.get("tags", []):
            out.append(f'<category term="{escape(cat)}"/>')
        if it.get("summary"):
            out.append(f"<summary>{escape(it['summary'])}</summary>")
        out.append(f'<content type="html">{escape(it["html"])}</content>')
        out.append("</entry>")
    out += ["</feed>", ""]
    return "\n".join(out)


def at(days, hours=0):
    return BASE + dt.timedelta(days=days, hours=hours)


def tech_news():
    items = []
    for i in range(1, 13):
        html = (
            f"<p>Tech news item {i}. A short paragraph of text with <b>bold</b>, <i>italic</i> "
            f'and a <a href="{HOST}/tech-news/more-{i}">link on feeds.test</a>.</p>'
        )
        if i % 3 == 1:
            html += f'<p><img src="{HOST}/media/gradient-320x200.png" alt="Gradient {i}" width="320" height="200"></p>'
        if i % 3 == 2:
            html += f'<figure><img src="{HOST}/media/red-64x48.png" alt="Red box"><figcaption>A red box</figcaption></figure>'
        if i == 5:
            html += "<pre><code>const answer = 42;\nconsole.log(answer);</code></pre><ul><li>one</li><li>two</li></ul>"
        if i == 7:
            html += "<table><tr><th>Col A</th><th>Col B</th></tr><tr><td>1</td><td>2</td></tr></table>"
        items.append({
            "title": f"Tech news {i:02d}: " + ["Compilers", "Databases", "Networks", "Browsers"][i % 4] + " update",
            "guid": f"tech-news-{i:02d}",
            "date": at(-i, 3),
            "author": "Tech Desk",
            "tags": ["tech", "news"] if i % 2 else ["tech"],
            "comments": f"{HOST}/tech-news/{i}/comments" if i == 3 else None,
            "html": html,
        })
    return rss("Testbed Tech News", "tech-news", "RSS 2.0 feed with images in content", items)


def web_dev():
    items = []
    for i in range(1, 9):
        html = f"<p>Web development entry {i} (Atom).</p>"
        enclosures = []
        if i == 1:
            html += (
                f'<p>An embedded player follows.</p><iframe src="{HOST}/embed/player.html" '
                'width="560" height="315" frameborder="0" allowfullscreen></iframe><p>After the frame.</p>'
            )
        if i == 2:
            html += f'<p><img src="{HOST}/media/cover-120.png" alt="Cover" title="Cover image"></p>'
            html += '<p>Relative link: <a href="/web-dev/relative-page">relative</a>, relative image:</p>'
            html += '<p><img src="/media/red-64x48.png" alt="relative red"></p>'
        if i == 3:
            enclosures = [
                (f"{HOST}/media/tone.wav", "audio/wav", SIZES["media/tone.wav"]),
                (f"{HOST}/media/cover-120.png", "image/png", SIZES["media/cover-120.png"]),
            ]
            html += "<p>Entry with two enclosures (audio and image).</p>"
        items.append({
            "title": f"Web dev {i:02d}: " + ["Service workers", "IndexedDB", "CSS layout", "Accessibility"][i % 4],
            "guid": f"urn:testbed:web-dev:{i:02d}",
            "slug": f"entry-{i}",
            "date": at(-i, 6),
            "author": "Web Desk",
            "tags": ["web", "pwa"] if i % 2 else ["web"],
            "summary": f"Summary of web dev entry {i}" if i % 2 else None,
            "html": html,
            "enclosures": enclosures,
        })
    return atom("Testbed Web Dev (Atom)", "web-dev", items)


def podcast():
    wav = (f"{HOST}/media/tone.wav", "audio/wav", SIZES["media/tone.wav"])
    webm = (f"{HOST}/media/clip.webm", "video/webm", SIZES["media/clip.webm"])
    mp4 = (f"{HOST}/media/clip.mp4", "video/mp4", SIZES["media/clip.mp4"])
    image = (f"{HOST}/media/cover-120.png", "image/png", SIZES["media/cover-120.png"])
    items = [
        {"title": "Episode 1: a tone (audio enclosure)", "guid": "podcast-ep-1", "date": at(-1, 9),
         "html": "<p>One second of a 440 Hz tone.</p>", "enclosures": [wav]},
        {"title": "Episode 2: a clip (video/webm enclosure)", "guid": "podcast-ep-2", "date": at(-2, 9),
         "html": "<p>A one-second WebM clip.</p>", "enclosures": [webm]},
        {"title": "Episode 3: a clip (video/mp4 enclosure)", "guid": "podcast-ep-3", "date": at(-3, 9),
         "html": "<p>A one-second MP4 clip.</p>", "enclosures": [mp4]},
        {"title": "Episode 4: cover art (image enclosure)", "guid": "podcast-ep-4", "date": at(-4, 9),
         "html": "<p>An image enclosure only.</p>", "enclosures": [image]},
        {"title": "Episode 5: no enclosure", "guid": "podcast-ep-5", "date": at(-5, 9),
         "html": "<p>Show notes without media.</p>"},
    ]
    for it in items:
        it["author"] = "Podcast Host"
    return rss("Testbed Podcast", "podcast", "RSS 2.0 feed with audio, video and image enclosures", items)


def international():
    entries = [
        ("ja", "日本語の記事：東京の秋", "<p>これは日本語のテスト記事です。紅葉がきれいです。</p>"),
        ("ar", "مقال باللغة العربية: أخبار اليوم", '<p dir="rtl">هذا مقال تجريبي باللغة العربية.</p>'),
        ("ru", "Статья на русском: новости дня", "<p>Это тестовая статья на русском языке. Ёжик в тумане.</p>"),
        ("el", "Άρθρο στα ελληνικά: Καλημέρα κόσμε", "<p>Αυτό είναι ένα δοκιμαστικό άρθρο στα ελληνικά.</p>"),
        ("emoji", "Emoji title 🎉🚀 with ZWJ 👩‍💻 and flags 🇯🇵", "<p>Emoji in content: 😀 👍🏽 ❤️ 🧪 — and a supplementary-plane char 𝔘𝔫𝔦𝔠𝔬𝔡𝔢.</p>"),
        ("mixed", "Mixed: English, 中文, עברית, हिन्दी", "<p>中文测试。 <span dir=\"rtl\">עברית</span>. हिन्दी परीक्षण। Combining: e\u0301 vs é.</p>"),
        ("entities", "Entities & quotes: \"double\" 'single' <angle>", "<p>Ampersand &amp; less-than &lt; greater-than &gt; nbsp&nbsp;here.</p>"),
    ]
    items = []
    for n, (key, title, html) in enumerate(entries, start=1):
        items.append({
            "title": title, "guid": f"intl-{n:02d}-{key}", "date": at(-n, 12),
            "author": {"ja": "山田太郎", "ar": "أحمد", "ru": "Иван Петров", "el": "Γιώργος"}.get(key, "Intl Desk"),
            "tags": [key, "international"], "html": html,
        })
    return rss("Testbed International — 国際 · دولي · Международный", "international",
               "Non-Latin titles and content", items)


def hostile():
    H = HOST
    cases = [
        ("Script tags", f'<p>Before script.</p><script>alert("script-tag")</script><script src="{H}/evil.js"></script><p>After script.</p>'),
        ("Event handlers", f'<p onclick="alert(\'p-onclick\')" onmouseover="alert(1)">Hover me</p>'
                           f'<img src="{H}/media/red-64x48.png" onload="alert(\'img-onload\')" onerror="alert(\'img-onerror\')" alt="handlers">'
                           '<img src="does-not-exist.png" onerror="alert(\'broken-img\')">'
                           '<svg onload="alert(\'svg-onload\')"><circle r="5"/></svg>'
                           '<body onload="alert(\'body-onload\')"></body>'),
        ("javascript: and data: links", '<p><a href="javascript:alert(\'js-link\')">javascript link</a> '
                                        '<a href="JaVaScRiPt:alert(\'mixed-case\')">mixed case</a> '
                                        '<a href="&#106;avascript:alert(\'entity\')">entity encoded</a> '
                                        '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgnZGF0YScpPC9zY3JpcHQ+">data URL</a> '
                                        '<a href="vbscript:msgbox(1)">vbscript</a></p>'),
        ("Style overlay", '<div style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;'
                          'background:rgba(255,0,0,.9);color:#fff;font-size:40px">FULL-PAGE OVERLAY</div>'
                          '<style>body{display:none!important} * {color:red}</style>'
                          '<p style="background:url(javascript:alert(\'css-url\'))">css url</p>'
                          '<link rel="stylesheet" href="' + H + '/evil.css">'),
        ("Forms and inputs", f'<form action="{H}/steal" method="post"><p>Session expired, log in again:</p>'
                             '<input name="user" placeholder="user"><input type="password" name="password" placeholder="password">'
                             '<button type="submit" formaction="javascript:alert(\'formaction\')">Log in</button></form>'
                             '<input type="image" src="x" onerror="alert(\'input-image\')">'),
        ("Frames and objects", '<iframe src="javascript:alert(\'iframe-js\')"></iframe>'
                               '<iframe srcdoc="&lt;script&gt;alert(\'srcdoc\')&lt;/script&gt;"></iframe>'
                               f'<iframe src="{H}/embed/player.html" sandbox="allow-scripts allow-same-origin allow-top-navigation"></iframe>'
                               f'<object data="{H}/media/evil.swf" type="application/x-shockwave-flash"></object>'
                               f'<embed src="{H}/media/evil.swf">'
                               '<frameset><frame src="javascript:alert(\'frame\')"></frameset>'),
        ("Meta refresh and base", '<meta http-equiv="refresh" content="0;url=javascript:alert(\'meta\')">'
                                  f'<base href="{H}/hijacked/"><p><a href="relative">relative after base</a></p>'),
        ("Attribute breaking", f'<a href="{H}/a&quot; onclick=&quot;alert(\'quote-break\')">quote break</a>'
                               '<img src=x:x onerror=alert(\'unquoted\')>'
                               '<a href="#" title="&quot;&gt;&lt;script&gt;alert(\'title-attr\')&lt;/script&gt;">title attr</a>'
                               '<math><mtext><table><mglyph><style><img src=x onerror=alert(\'mxss\')></style></mglyph></table></mtext></math>'
                               '<noscript><p title="</noscript><img src=x onerror=alert(\'noscript\')>"></p></noscript>'),
        ("<b>HTML</b> in <script>alert('title')</script> title", "<p>The title of this item carries markup.</p>"),
        ("Target and window.opener", f'<a href="{H}/opener" target="_blank">new window without rel</a>'
                                     f'<a href="{H}/top" target="_top">top navigation</a>'),
    ]
    items = []
    for n, (title, html) in enumerate(cases, start=1):
        items.append({"title": title, "guid": f"hostile-{n:02d}", "date": at(-n, 15),
                      "author": "<b>Mallory</b> <script>alert('author')</script>", "html": html})
    # A javascript: article link and an enclosure with a javascript: URL.
    items.append({"title": "javascript: article link", "guid": "hostile-11", "date": at(-11, 15),
                  "link": "javascript:alert('article-link')", "html": "<p>The item's own link is javascript:.</p>",
                  "enclosures": [("javascript:alert('enclosure')", "audio/mpeg", 1)]})
    return rss("Testbed Hostile HTML", "hostile", "Content that must never run in the app's origin", items)


CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "hostile", "corpus.json")


def hostile_corpus():
    """One item per vector of the hostile-HTML corpus (tests/fixtures/hostile/corpus.json).

    The HTML goes into <description> XML-escaped (not CDATA: a vector may contain "]]>").
    Titles match tests/fixtures/hostile/corpus.ts corpusTitle(); dates are older than every other
    fixture so the corpus sorts last in "All articles".
    """
    with open(CORPUS, encoding="utf-8") as f:
        vectors = json.load(f)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<rss version="2.0">',
        "<channel>",
        "<title>Testbed Hostile Corpus</title>",
        f"<link>{HOST}/hostile-corpus/</link>",
        "<description>The hostile-HTML corpus, one vector per item</description>",
        "<language>en</language>",
    ]
    start = BASE - dt.timedelta(days=300)
    for n, v in enumerate(vectors, start=1):
        out += [
            "<item>",
            f"<title>{escape(f'Corpus {n:03d}: ' + v['name'])}</title>",
            f"<link>{HOST}/hostile-corpus/{escape(v['name'])}</link>",
            f'<guid isPermaLink="false">hostile-corpus-{n:03d}-{escape(v["name"])}</guid>',
            f"<pubDate>{rfc822(start - dt.timedelta(hours=n))}</pubDate>",
            f"<category>{escape(v['category'])}</category>",
            f"<description>{escape(v['html'])}</description>",
            "</item>",
        ]
    out += ["</channel>", "</rss>", ""]
    return "\n".join(out), len(vectors)


def big():
    items = []
    topics = ["alpha", "beta", "gamma", "delta", "epsilon"]
    for i in range(1, BIG_COUNT + 1):
        items.append({
            "title": f"Big feed item {i:03d} ({topics[i % 5]})",
            "guid": f"big-{i:03d}",
            # one item every 6 hours, newest first: item 1 is the newest
            "date": at(0, -6 * i),
            "html": f"<p>Body of big feed item {i}. Topic {topics[i % 5]}.</p>",
        })
    return rss("Testbed Big Feed (320 items)", "big", f"{BIG_COUNT} items for paging tests", items)


def extra():
    # Served but subscribed by nobody: the OPML import's "new feed" (tests/e2e/account-tools.spec.ts).
    items = [{
        "title": f"Extra item {i}",
        "guid": f"extra-{i}",
        "date": at(-i, 1),
        "html": f"<p>Body of extra item {i}.</p>",
    } for i in range(1, 4)]
    return rss("Testbed Extra (not subscribed)", "extra", "A feed no test-bed user subscribes to", items)


# ---------------------------------------------------------------- real-world shapes
# Feeds shaped like Reddit's, a Craigslist search's and an iTunes podcast's, whose images and
# media live on other host names than the feed (testbed.json feedsAliases: more names of the
# namespace's address, in /etc/hosts), as theirs do: a request straight to one of them is told
# apart from one through tt-rss. Subscribed by nobody in the seed (tests/e2e/plugin-images.spec.ts
# subscribes them), so the seeded counts stay as they are. Links stay on feeds.test.
THUMBS = "http://b.thumbs.reddit.test"
PREVIEW = "http://preview.reddit.test"
CRAIGSLIST = "http://images.craigslist.test"
PODCAST_CDN = "http://cdn.podcast.test"


def reddit():
    # Reddit's Atom: a table with the thumbnail in the content, media:thumbnail (tt-rss keeps it as
    # an "image/generic" enclosure), and image posts with a preview image in a srcset whose URLs
    # carry query strings (&amp; in the XML).
    updated = at(-1)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">',
        '<category term="pics" label="r/pics"/>',
        f"<updated>{iso(updated)}</updated>",
        f"<id>{HOST}/r/pics/.rss</id>",
        f'<link rel="self" href="{HOST}/feeds/reddit.xml" type="application/atom+xml" />',
        f'<link rel="alternate" href="{HOST}/r/pics/" type="text/html" />',
        "<subtitle>A place for pictures and photographs.</subtitle>",
        "<title>pics (Reddit-shaped)</title>",
    ]
    for i in range(1, 4):
        post = f"{HOST}/r/pics/comments/t3_{i}/post_{i}/"
        thumb = f"{THUMBS}/media/red-64x48.png?t={i}"
        preview = f"{PREVIEW}/media/gradient-320x200.png?width=320&crop=smart&auto=webp&s={i}"
        preview2x = f"{PREVIEW}/media/gradient-320x200.png?width=640&crop=smart&auto=webp&s={i}"
        html = (
            f'<table> <tr><td> <a href="{post}"> <img src="{thumb}" alt="Reddit post {i}" '
            f'title="Reddit post {i}" /> </a> </td><td> &#32; submitted by &#32; '
            f'<a href="{HOST}/user/poster{i}"> /u/poster{i} </a> <br/> '
            f'<span><a href="{preview}">[link]</a></span> &#32; <span><a href="{post}">[comments]</a></span> '
            "</td></tr></table>"
        )
        if i != 3:
            html += (
                f'<div><a href="{post}"><img src="{preview}" srcset="{preview} 320w, {preview2x} 640w" '
                f'sizes="100vw" alt="Preview {i}"></a></div>'
            )
        out += [
            "<entry>",
            f"<author><name>/u/poster{i}</name><uri>{HOST}/user/poster{i}</uri></author>",
            '<category term="pics" label="r/pics"/>',
            f'<content type="html">{escape(html)}</content>',
            f"<id>t3_{i}</id>",
            f'<media:thumbnail url="{escape(thumb)}" />',
            f'<link href="{post}" />',
            f"<updated>{iso(at(-i, 2))}</updated>",
            f"<published>{iso(at(-i, 2))}</published>",
            f"<title>Reddit post {i}: a picture</title>",
            "</entry>",
        ]
    out += ["</feed>", ""]
    return "\n".join(out)


def craigslist():
    # A Craigslist search's listings as an RSS 2.0 reader sees them: the photo as an image
    # enclosure and as media:content (no type: "image/generic"), a small photo in the description.
    items = []
    for i in range(1, 4):
        photo = f"{CRAIGSLIST}/media/cover-120.png?id=00{i}0{i}_listing_600x450"
        small = f"{CRAIGSLIST}/media/red-64x48.png?id=00{i}0{i}_listing_50x50c"
        items.append({
            "title": f"Craigslist listing {i}: $1{i}00 / 1br - sunny room",
            "guid": f"craigslist-{i}",
            "link": f"{HOST}/sfbay/apa/d/listing-{i}.html",
            "date": at(-i, 4),
            "enclosures": [(photo, "image/jpeg", "24000")],
            "extra": f'<media:content url="{escape(small)}" medium="image"/>',
            "html": f'<p>$1{i}00 — sunny 1br near the park.</p><p><img src="{small}" alt="Listing {i}"></p>',
        })
    return rss("Craigslist sfbay apartments (Craigslist-shaped)", "sfbay", "Listings with photos", items,
               namespaces='xmlns:media="http://search.yahoo.com/mrss/"')


def podcast_itunes():
    # An iTunes podcast: artwork (itunes:image, which tt-rss ignores), an audio enclosure on the
    # publisher's CDN, show notes with the cover in a srcset, a video with a poster, and an image
    # at an internal address the Reader plugin's proxy must refuse to sign.
    cover = f"{PODCAST_CDN}/media/cover-120.png"
    items = [
        {"title": "Real podcast 1: the tone", "guid": "itunes-ep-1", "date": at(-1, 7),
         "enclosures": [(f"{PODCAST_CDN}/media/tone.wav", "audio/wav", SIZES["media/tone.wav"])],
         "extra": f'<itunes:image href="{cover}"/><itunes:duration>00:00:01</itunes:duration>',
         "html": (f'<p>Show notes of episode 1.</p><p><img src="{cover}" srcset="{cover} 1x,'
                  f'{PODCAST_CDN}/media/gradient-320x200.png 2x" alt="Episode 1 cover"></p>'
                  '<p><img src="http://10.213.0.9/media/red-64x48.png" alt="An internal image"></p>')},
        {"title": "Real podcast 2: the video", "guid": "itunes-ep-2", "date": at(-2, 7),
         "enclosures": [(f"{PODCAST_CDN}/media/clip.webm", "video/webm", SIZES["media/clip.webm"])],
         "extra": f'<itunes:image href="{cover}"/>',
         "html": (f'<p>Show notes of episode 2.</p><video controls poster="{PODCAST_CDN}/media/gradient-320x200.png">'
                  f'<source src="{PODCAST_CDN}/media/clip.webm" type="video/webm"></video>')},
    ]
    for it in items:
        it["author"] = "Podcast Network"
    return rss("Real-world Podcast (iTunes-shaped)", "itunes-podcast", "A podcast with artwork on its CDN", items,
               extra_channel=f'<itunes:image href="{cover}"/><itunes:author>Podcast Network</itunes:author>',
               namespaces='xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"')


# ---------------------------------------------------------------- full text (issue 59)
# A teaser feed: each item carries the first sentences of a real page (fulltext/<name>/, copied
# from Readability's tests with their licence) and links to that page on feeds.test, where the
# Reader plugin fetches it for the app's "Full text". Plus a page over the plugin's 5 MB limit
# (written here, not committed) and one the feeds host holds past the plugin's timeout. Subscribed by nobody in the seed (the full-text e2e subscribes).
FULLTEXT = os.path.join(ROOT, "fulltext")
TOO_LARGE_BYTES = 6 * 1024 * 1024


def teaser_text(name):
    with open(os.path.join(FULLTEXT, name, "expected-metadata.json"), encoding="utf-8") as f:
        meta = json.load(f)
    return meta.get("title") or name, (meta.get("excerpt") or "")[:200]


def fulltext_feed():
    names = sorted(n for n in os.listdir(FULLTEXT) if os.path.isdir(os.path.join(FULLTEXT, n)))
    items = []
    for i, name in enumerate(names):
        title, excerpt = teaser_text(name)
        items.append({"title": f"Full text {i + 1:02d}: {title}", "guid": f"fulltext-{name}",
                      "date": at(-1, hours=-(i + 1)),
                      "link": f"{HOST}/fulltext/{name}/source.html",
                      "html": f"<p>{escape(excerpt)}</p>"})
    items.append({"title": "Full text: a page too large", "guid": "fulltext-too-large",
                  "date": at(-3), "link": f"{HOST}/fulltext/too-large.html",
                  "html": "<p>Only a teaser of a page too large to fetch.</p>"})
    # Held by the feeds host (testbed/feeds_server.py, /slow/) past the plugin's page timeout.
    items.append({"title": "Full text: a page too slow", "guid": "fulltext-too-slow",
                  "date": at(-3, hours=-1), "link": f"{HOST}/slow/fulltext/rtl-1/source.html",
                  "html": "<p>Only a teaser of a page too slow to answer.</p>"})
    return rss("Teasers (full text on the page)", "teasers", "Teasers of real pages", items)


def too_large_page():
    para = "<p>" + "A long page for the size limit. " * 30 + "</p>\n"
    head = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Too large</title></head><body><article>\n"
    body = para * (TOO_LARGE_BYTES // len(para) + 1)
    return head + body + "</article></body></html>\n"


BIG_COUNT = 320
SIZES = {}


def main():
    SIZES.update(media())
    write("feeds/tech-news.xml", tech_news())
    write("feeds/web-dev.xml", web_dev())
    write("feeds/podcast.xml", podcast())
    write("feeds/international.xml", international())
    write("feeds/hostile.xml", hostile())
    write("feeds/big.xml", big())
    corpus_xml, _ = hostile_corpus()
    write("feeds/hostile-corpus.xml", corpus_xml)
    write("feeds/extra.xml", extra())
    write("feeds/reddit.xml", reddit())
    write("feeds/craigslist.xml", craigslist())
    write("feeds/podcast-itunes.xml", podcast_itunes())
    write("feeds/fulltext.xml", fulltext_feed())
    write("fulltext/too-large.html", too_large_page())


if __name__ == "__main__":
    main()
