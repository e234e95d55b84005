// @vitest-environment jsdom
// DOMPurify needs a DOM; jsdom parses like a browser for everything checked here. The same corpus
// is rendered in Chromium by tests/e2e/content-corpus.spec.ts.
import { describe, expect, it } from 'vitest';
import { corpus } from '../../../tests/fixtures/hostile/corpus';
import { contentViolations } from '../../../tests/fixtures/hostile/invariants';
import { safeUrl, sanitizeArticle, sanitizeArticleToString } from './sanitize';
import { IFRAME_SANDBOX } from './sanitize-policy';

const BASE = 'http://feeds.test/articles/one.html';

function render(html: string, options: Parameters<typeof sanitizeArticle>[1] = {}): HTMLElement {
	const holder = document.createElement('div');
	holder.append(sanitizeArticle(html, { baseUrl: BASE, ...options }));
	return holder;
}

describe('the hostile corpus', () => {
	it('has at least 100 uniquely named vectors', () => {
		expect(corpus.length).toBeGreaterThanOrEqual(100);
		expect(new Set(corpus.map((v) => v.name)).size).toBe(corpus.length);
	});

	for (const hasSandbox of [true, false]) {
		describe(`hasSandbox ${hasSandbox}`, () => {
			for (const vector of corpus) {
				it(`${vector.category}: ${vector.name}`, () => {
					const out = render(vector.html, { hasSandbox });
					expect(contentViolations(out, { iframesAllowed: hasSandbox })).toEqual([]);
					// No marker may survive anywhere but as inert text or attribute text.
					expect(out.innerHTML).not.toMatch(/<script|\son\w+\s*=/i);
				});
			}
		});
	}

	it('also holds without a base URL (relative URLs dropped)', () => {
		for (const vector of corpus) {
			const out = render(vector.html, { baseUrl: undefined });
			expect(contentViolations(out, { iframesAllowed: true }), vector.name).toEqual([]);
		}
	});
});

describe('sanitizeArticle', () => {
	it('keeps ordinary article markup', () => {
		const html =
			'<h2>Title</h2><p>Text with <b>bold</b>, <em>em</em>, <code>code</code>.</p>' +
			'<ul><li>one</li></ul><blockquote>quote</blockquote><pre><code>x = 1</code></pre>' +
			'<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>' +
			'<figure><img src="http://feeds.test/media/red-64x48.png" alt="red" width="64" height="48">' +
			'<figcaption>cap</figcaption></figure>';
		const out = render(html);
		for (const sel of [
			'h2',
			'b',
			'em',
			'code',
			'ul li',
			'blockquote',
			'pre',
			'table th',
			'figcaption'
		])
			expect(out.querySelector(sel), sel).not.toBeNull();
		const img = out.querySelector('img');
		expect(img?.getAttribute('src')).toBe('http://feeds.test/media/red-64x48.png');
		expect(img?.getAttribute('width')).toBe('64');
		expect(img?.getAttribute('loading')).toBe('lazy');
		expect(img?.getAttribute('referrerpolicy')).toBe('no-referrer');
	});

	it('forces target and rel on links and resolves relative ones against the article', () => {
		const out = render('<a href="../more" target="_top" rel="opener">more</a>');
		const a = out.querySelector('a');
		expect(a?.getAttribute('href')).toBe('http://feeds.test/more');
		expect(a?.getAttribute('target')).toBe('_blank');
		expect(a?.getAttribute('rel')).toBe('noopener noreferrer');
	});

	it('drops relative URLs when there is no usable base (never the app origin)', () => {
		for (const baseUrl of [undefined, '', "javascript:alert('article-link')", 'not a url']) {
			const out = render('<a href="/logout">x</a><img src="/tt-rss/api/">', { baseUrl });
			expect(out.querySelector('a')?.hasAttribute('href')).toBe(false);
			expect(out.querySelector('img')?.hasAttribute('src')).toBe(false);
		}
	});

	it('keeps mailto: links and protocol-relative links become absolute', () => {
		const out = render('<a href="mailto:a@b.test">m</a><a href="//cdn.test/x">c</a>');
		const [mail, cdn] = out.querySelectorAll('a');
		expect(mail?.getAttribute('href')).toBe('mailto:a@b.test');
		expect(cdn?.getAttribute('href')).toBe('http://cdn.test/x');
	});

	it('rewrites same-document fragment links to the prefixed ids', () => {
		const out = render(
			'<p>Text<sup><a href="#fn1">1</a></sup></p><p id="fn1">Note</p><a name="x">x</a>'
		);
		expect(out.querySelector('sup a')?.getAttribute('href')).toBe('#user-content-fn1');
		expect(out.querySelector('sup a')?.hasAttribute('target')).toBe(false);
		expect(out.querySelector('p[id]')?.id).toBe('user-content-fn1');
		expect(out.querySelector('a[name]')?.getAttribute('name')).toBe('user-content-x');
	});

	it('sandboxes http(s) iframes, whatever sandbox the feed asked for', () => {
		const out = render(
			'<iframe src="http://feeds.test/embed/player.html" sandbox="allow-same-origin allow-scripts" ' +
				'allow="camera" srcdoc="&lt;b&gt;x" name="top" width="560" height="315" allowfullscreen></iframe>'
		);
		const frame = out.querySelector('iframe');
		expect(frame?.getAttribute('src')).toBe('http://feeds.test/embed/player.html');
		expect(frame?.getAttribute('sandbox')).toBe(IFRAME_SANDBOX);
		expect(frame?.getAttribute('referrerpolicy')).toBe('no-referrer');
		expect(frame?.getAttribute('loading')).toBe('lazy');
		for (const gone of ['srcdoc', 'allow', 'name'])
			expect(frame?.hasAttribute(gone), gone).toBe(false);
		expect(frame?.hasAttribute('allowfullscreen')).toBe(true);
	});

	it('resolves a relative iframe src against the article', () => {
		const frame = render('<iframe src="/embed/player.html"></iframe>').querySelector('iframe');
		expect(frame?.getAttribute('src')).toBe('http://feeds.test/embed/player.html');
	});

	it('drops iframes without an http(s) src, and every iframe when hasSandbox is off', () => {
		expect(
			render('<iframe src="javascript:alert(1)"></iframe>').querySelector('iframe')
		).toBeNull();
		expect(render('<iframe srcdoc="<b>x</b>"></iframe>').querySelector('iframe')).toBeNull();
		expect(render('<iframe src="data:text/html,x"></iframe>').querySelector('iframe')).toBeNull();
		const off = render('<p>a</p><iframe src="https://video.test/embed/1"></iframe><p>b</p>', {
			hasSandbox: false
		});
		expect(off.querySelector('iframe')).toBeNull();
		expect(off.textContent).toBe('ab');
	});

	it('allows data: images only as raster images on <img src>', () => {
		const png = 'data:image/png;base64,iVBORw0KGgo=';
		expect(render(`<img src="${png}">`).querySelector('img')?.getAttribute('src')).toBe(png);
		const svg = render('<img src="data:image/svg+xml,<svg/>">').querySelector('img');
		expect(svg?.hasAttribute('src')).toBe(false);
		const video = render(`<video poster="${png}"></video>`).querySelector('video');
		expect(video?.hasAttribute('poster')).toBe(false);
	});

	it('filters srcset candidates one by one', () => {
		const img = render(
			'<img srcset="javascript:alert(1) 1x, /media/a.png 2x, data:image/png;base64,AA 3x, https://cdn.test/b.png 640w">'
		).querySelector('img');
		expect(img?.getAttribute('srcset')).toBe(
			'http://feeds.test/media/a.png 2x, https://cdn.test/b.png 640w'
		);
	});

	it('gives media controls, no autoplay and no preload', () => {
		const video = render('<video src="/media/clip.webm" autoplay></video>').querySelector('video');
		expect(video?.getAttribute('src')).toBe('http://feeds.test/media/clip.webm');
		expect(video?.hasAttribute('autoplay')).toBe(false);
		expect(video?.hasAttribute('controls')).toBe(true);
		expect(video?.getAttribute('preload')).toBe('none');
	});

	it('removes style, class and presentation that could overlay the app', () => {
		const out = render(
			'<div style="position:fixed;inset:0" class="app bar" role="dialog" aria-modal="true" data-x="1">t</div>'
		);
		const div = out.querySelector('div');
		expect(div?.attributes.length).toBe(0);
		expect(div?.textContent).toBe('t');
	});

	it('drops forbidden containers with their content, unwraps unknown elements', () => {
		expect(
			sanitizeArticleToString('<p>a</p><script>evil()</script><style>p{}</style><p>b</p>')
		).toBe('<p>a</p><p>b</p>');
		expect(sanitizeArticleToString('<svg><text>svg text</text></svg><math><mi>x</mi></math>')).toBe(
			''
		);
		expect(sanitizeArticleToString('<x-card><font color="red">kept</font></x-card>')).toBe('kept');
		expect(sanitizeArticleToString('<form><p>Session expired</p><input name="u"></form>')).toBe(
			'<p>Session expired</p>'
		);
	});

	it('returns a fragment owned by an inert document until it is appended', () => {
		const fragment = sanitizeArticle('<img src="http://feeds.test/media/red-64x48.png">');
		expect(fragment.nodeType).toBe(Node.DOCUMENT_FRAGMENT_NODE);
		expect(fragment.ownerDocument).not.toBe(document);
	});

	it('a <frameset> body gives an empty fragment, never null (shown as "null")', () => {
		for (const html of [
			'<frameset><frame src="http://feeds.test/"></frameset>',
			'<html><head></head><frameset cols="50%,50%"><frame src="https://a.test/"></frameset></html>'
		]) {
			const fragment = sanitizeArticle(html, { baseUrl: BASE });
			expect(fragment).toBeInstanceOf(DocumentFragment);
			expect(sanitizeArticleToString(html)).toBe('');
		}
	});

	it('drops images, media and frames on the app’s own origin, keeps links there', () => {
		const self = location.origin;
		const out = render(
			`<img src="${self}/tt-rss/public.php?op=pixel">` +
				`<img src="/tt-rss/images/x.png">` +
				`<img srcset="${self}/a.png 1x, http://feeds.test/b.png 2x">` +
				`<video poster="${self}/p.png" src="${self}/v.webm"></video>` +
				`<iframe src="${self}/tt-rss/prefs.php"></iframe>` +
				`<a href="${self}/tt-rss/">tt-rss</a>`,
			// The article itself sits on the app's origin: its relative URLs resolve there.
			{ baseUrl: `${self}/tt-rss/public.php?op=share` }
		);
		const imgs = [...out.querySelectorAll('img')];
		expect(imgs.map((i) => i.getAttribute('src'))).toEqual([null, null, null]);
		expect(imgs[2]?.getAttribute('srcset')).toBe('http://feeds.test/b.png 2x');
		expect(out.querySelector('video')?.hasAttribute('poster')).toBe(false);
		expect(out.querySelector('video')?.hasAttribute('src')).toBe(false);
		expect(out.querySelector('iframe')).toBeNull();
		expect(out.querySelector('a')?.getAttribute('href')).toBe(`${self}/tt-rss/`);
	});

	it('keeps an image through the Reader plugin’s signed proxy on the app’s origin, only as an image', () => {
		const self = location.origin;
		const proxied = (q: string) => `${self}/tt-rss/public.php?${q}`;
		const signed = proxied(
			'op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=http%3A%2F%2Ffeeds.test%2Fa.png&sig=ab12'
		);
		const out = render(
			`<img src="${signed.replace(/&/g, '&amp;')}">` +
				`<img srcset="${signed} 2x">` +
				// Near misses: another method, another plugin, no signature.
				`<img src="${proxied('op=pluginhandler&plugin=reader&pmethod=save&url=x&sig=ab12')}">` +
				`<img src="${proxied('op=pluginhandler&plugin=other&pmethod=image&url=x&sig=ab12')}">` +
				`<img src="${proxied('op=pluginhandler&plugin=reader&pmethod=image&url=x')}">` +
				`<video poster="${signed}" src="${signed}"></video>`,
			{ baseUrl: BASE }
		);
		const imgs = [...out.querySelectorAll('img')];
		expect(imgs.map((i) => i.getAttribute('src'))).toEqual([signed, null, null, null, null]);
		expect(imgs[1]?.getAttribute('srcset')).toBe(`${signed} 2x`);
		expect(out.querySelector('video')?.hasAttribute('poster')).toBe(false);
		expect(out.querySelector('video')?.hasAttribute('src')).toBe(false);
	});

	it('where the Reader plugin signs images, loads none from its host: each through the proxy or a line saying so (issue 55)', () => {
		// The plugin's server may be another origin than the app's (a preview in front of it).
		const proxy = (url: string) =>
			`http://rss.test/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=${encodeURIComponent(url)}&sig=ab`;
		const a = 'http://thumbs.test/a.jpg';
		const b = 'http://thumbs.test/b.jpg?w=2&h=2';
		const poster = 'http://cdn.test/poster.jpg';
		const signedImages = { [a]: proxy(a), [b]: proxy(b), [poster]: proxy(poster) };
		const html =
			// Rewritten by the plugin already, and an srcset it missed a candidate of.
			`<img src="${proxy(a).replace(/&/g, '&amp;')}" srcset="${proxy(a)} 1x, http://thumbs.test/c.jpg 2x">` +
			// Named by its own address, signed in the map (the app takes the signed one).
			`<img src="${b.replace(/&/g, '&amp;')}" alt="b">` +
			// Not signed: not loaded; a line says so, with the image's own text as its title.
			`<img src="http://tracker.test/x.jpg" alt="A chart">` +
			`<picture><source srcset="http://tracker.test/y.webp"><img src="http://tracker.test/y.jpg"></picture>` +
			// A tracking pixel just goes; a proxy-shaped address the server did not give is refused.
			`<img src="http://tracker.test/p.gif" width="1" height="1">` +
			`<img src="http://evil.test/public.php?op=pluginhandler&amp;plugin=reader&amp;pmethod=image&amp;url=x&amp;sig=y">` +
			// Inline images load nothing; posters are images; media stay as they are.
			`<img src="data:image/png;base64,AAAA">` +
			`<video poster="${poster}" src="http://cdn.test/v.webm"></video>` +
			`<video poster="http://cdn.test/other.jpg"></video>`;
		const out = render(html, { signedImages });
		const loads = [...out.querySelectorAll('img, source')].flatMap((el) =>
			['src', 'srcset'].flatMap((attr) => el.getAttribute(attr) ?? [])
		);
		expect(loads).toEqual([proxy(a), `${proxy(a)} 1x`, proxy(b), 'data:image/png;base64,AAAA']);
		const videos = [...out.querySelectorAll('video')];
		expect(videos.map((v) => v.getAttribute('poster'))).toEqual([proxy(poster), null]);
		expect(videos[0]?.getAttribute('src')).toBe('http://cdn.test/v.webm');
		const lines = [...out.querySelectorAll('.image-unavailable')];
		expect(lines.map((l) => [l.textContent, l.getAttribute('title')])).toEqual([
			['Image not available through your server', 'A chart'],
			['Image not available through your server', null],
			['Image not available through your server', null]
		]);
		expect(out.innerHTML).not.toContain('tracker.test/x.jpg');
		expect(out.innerHTML).not.toContain('p.gif');

		// An article the plugin's hook did not see, while the account's images go through it.
		const none = render('<img src="http://thumbs.test/a.jpg">', { signedImages: {} });
		expect(none.querySelector('img')).toBeNull();
		expect(none.querySelector('.image-unavailable')).not.toBeNull();
		// Without the plugin, as before: from its host.
		const plain = render(html);
		expect(plain.querySelector('img[alt="A chart"]')?.getAttribute('src')).toBe(
			'http://tracker.test/x.jpg'
		);
		expect(plain.querySelector('.image-unavailable')).toBeNull();
	});

	it('safeUrl: the same rule for server URLs outside the body', () => {
		const self = location.origin;
		expect(safeUrl('https://site.test/post', 'link')).toBe('https://site.test/post');
		expect(safeUrl('  javascript:alert(1)', 'link')).toBeUndefined();
		expect(safeUrl('java\tscript:alert(1)', 'link')).toBeUndefined();
		expect(safeUrl('data:text/html,<script>1</script>', 'link')).toBeUndefined();
		expect(safeUrl('vbscript:x', 'media')).toBeUndefined();
		expect(safeUrl('mailto:a@b.test', 'link')).toBe('mailto:a@b.test');
		expect(safeUrl('mailto:a@b.test', 'image')).toBeUndefined();
		expect(safeUrl('/relative', 'link')).toBeUndefined();
		expect(safeUrl('ep1.mp3', 'media', 'http://feeds.test/pod/feed')).toBe(
			'http://feeds.test/pod/ep1.mp3'
		);
		expect(safeUrl(`${self}/tt-rss/x.png`, 'image')).toBeUndefined();
		expect(safeUrl(`${self}/tt-rss/`, 'link')).toBe(`${self}/tt-rss/`);
		expect(safeUrl('data:image/png;base64,AAAA', 'image')).toBe('data:image/png;base64,AAAA');
		expect(safeUrl(undefined, 'link')).toBeUndefined();
		expect(safeUrl(null, 'image')).toBeUndefined();
		expect(safeUrl('', 'link')).toBeUndefined();
	});

	it('does not leak one call’s options into the next', () => {
		sanitizeArticle('<iframe src="https://a.test/"></iframe>', {
			hasSandbox: false,
			baseUrl: BASE
		});
		const out = document.createElement('div');
		out.append(sanitizeArticle('<iframe src="https://a.test/"></iframe><a href="/x">x</a>'));
		expect(out.querySelector('iframe')).not.toBeNull();
		expect(out.querySelector('a')?.hasAttribute('href')).toBe(false);
	});
});
