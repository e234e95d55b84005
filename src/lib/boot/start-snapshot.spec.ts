// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { setShownAccount } from '$lib/db/account';
import { captureSnapshot, inertCopy } from './start-snapshot';
import {
	inertStyle,
	insertSnapshot,
	parseRootAttributes,
	SNAPSHOT_ACCOUNT_HEADER,
	SNAPSHOT_ELEMENT_ID,
	snapshotServes
} from './snapshot-contract';

function copyOf(html: string): string {
	const source = document.createElement('div');
	source.innerHTML = html;
	return inertCopy(source, document);
}

const SHELL =
	'<!doctype html><html lang="en"><head><title>Reader</title></head><body data-x="1"><div style="display: contents"><script src="/_app/immutable/bootstrap.js"></script></div></body></html>';

describe('the inert copy of a screen', () => {
	it('keeps text, layout classes, inline layout styles and the app’s own links', () => {
		const out = copyOf(
			'<nav class="tree svelte-1"><a href="/feed/-4" class="x" aria-current="page">All articles</a></nav>' +
				'<div class="viewport"><div class="sizer" style="height: 1200px"><div class="row" style="transform: translateY(44px)">' +
				'<div class="headline svelte-2" data-article-id="42" lang="ja" dir="ltr"><span class="title">国際 &amp; <b>news</b></span><time datetime="2026-10-01">1 Oct</time></div></div></div></div>'
		);
		expect(out).toContain('<a href="/feed/-4" class="x" aria-current="page">All articles</a>');
		expect(out).toContain('style="height: 1200px"');
		expect(out).toContain('data-article-id="42"');
		expect(out).toContain('国際 &amp; <b>news</b>');
		expect(out).toContain('<time datetime="2026-10-01">');
	});

	it('leaves out what the first frame would not paint, with its content', () => {
		const source = document.createElement('div');
		source.innerHTML =
			'<ul><li class="feed">Shown</li><li class="feed" data-fold="below">Past the fold<b>deep</b></li></ul>' +
			'<div class="menu" data-fold="below"><button>Mark all read</button></div><p>After</p>';
		const out = inertCopy(source, document, (element) => !element.hasAttribute('data-fold'));
		expect(out).toBe('<ul><li class="feed">Shown</li></ul><p>After</p>');
	});

	it('keeps a link only when the URL parser puts it on the app’s own origin', () => {
		const hrefs = (html: string): (string | null)[] => {
			const out = document.createElement('div');
			out.innerHTML = copyOf(html);
			return [...out.querySelectorAll('a')].map((a) => a.getAttribute('href'));
		};
		const hostile = [
			'/\\evil.test/x',
			'\\\\evil.test/x',
			'/\t/evil.test/x',
			'/\n/evil.test/x',
			'//evil.test/x',
			' //evil.test/x',
			'https://evil.test/x',
			'javascript:alert(1)',
			'data:text/html,x',
			'http://[',
			`${location.protocol}//${location.host}.evil.test/`
		];
		for (const href of hostile) {
			const a = document.createElement('a');
			a.setAttribute('href', href);
			expect(hrefs(a.outerHTML), JSON.stringify(href)).toEqual([null]);
			// What the browser would have followed: another origin, or no http(s) at all.
			expect(a.origin === location.origin && /^https?:$/.test(a.protocol), href).toBe(false);
		}
		// `http:x` on an http page is a path of the page's own origin, for the browser as here.
		const own = ['/feed/12', '/settings/storage?x=1#top', 'article/5', `${location.origin}/a`];
		for (const href of [...own, `${location.protocol}x`]) {
			expect(hrefs(`<a href="${href}">own</a>`)).toEqual([href]);
		}
	});

	it('drops what could run, load or point elsewhere; images become boxes', () => {
		const out = copyOf(
			'<script>alert(1)</script><style>body{}</style><iframe src="https://evil.test"></iframe>' +
				'<img class="icon" src="https://tracker.test/p.gif" onerror="alert(1)" style="width: 16px">' +
				'<a href="https://evil.test/" onclick="alert(1)">out</a><a href="//evil.test/">proto</a>' +
				'<a href="javascript:alert(1)">js</a><div style="background: url(https://t.test/x)">bg</div>' +
				'<input type="search" value="secret words" name="q" id="search"><form action="/x"><p>in form</p></form>' +
				'<div id="x" aria-labelledby="x" tabindex="0">ids</div><svg viewBox="0 0 1 1" onload="alert(1)"><path d="M0 0" /><foreignObject><p>fo</p></foreignObject></svg>' +
				'<template><p>t</p></template><dialog open><p>toast</p></dialog>'
		);
		for (const bad of [
			'script',
			'alert',
			'<style',
			'iframe',
			'<img',
			'tracker.test',
			'evil.test',
			'javascript:',
			'url(',
			'secret words',
			'name=',
			'id=',
			'aria-labelledby',
			'tabindex',
			'foreignObject',
			'<form',
			'in form',
			'>t<',
			'toast'
		]) {
			expect(out).not.toContain(bad);
		}
		expect(out).toContain('<span class="icon" style="width: 16px"></span>');
		expect(out).toContain('<input type="search">');
		expect(out).toContain('<path d="M0 0"></path>');
	});

	it('never carries a script, an event handler, a frame or a foreign URL, whatever the screen held', () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), fc.webUrl(), (junk, url) => {
				const out = copyOf(
					`<div class="a">${junk}<img src="${url}"><a href="${url}">l</a><iframe src="${url}"></iframe><svg><script>x</script><a href="${url}">s</a></svg><div onclick="${junk}">${junk}</div></div>`
				);
				const parsed = document.createElement('div');
				parsed.innerHTML = out;
				for (const element of parsed.querySelectorAll('*')) {
					expect(['script', 'iframe', 'img', 'style', 'object', 'embed']).not.toContain(
						element.localName
					);
					for (const attribute of element.attributes) {
						expect(attribute.name.startsWith('on')).toBe(false);
						if (attribute.name === 'href') {
							expect(new URL(attribute.value, location.href).origin).toBe(location.origin);
						}
					}
				}
			}),
			{ numRuns: 100 }
		);
	}, 30_000);

	it('leaves out the words only a screen reader says: the copy is hidden from it', () => {
		expect(
			copyOf('<a href="/feed/1">Linux<span class="visually-hidden">, 3 unread</span></a>')
		).toBe('<a href="/feed/1">Linux</a>');
	});

	it('leaves out a snapshot already in the page', () => {
		expect(copyOf(`<div id="${SNAPSHOT_ELEMENT_ID}"><p>old</p></div><p>new</p>`)).toBe(
			'<p>new</p>'
		);
	});
});

describe('the shell with a snapshot', () => {
	it('puts the snapshot first in the body, inert and hidden from assistive technology', () => {
		const out = insertSnapshot(SHELL, '<p>rows</p>', {});
		expect(out).toContain(
			`<body data-x="1"><div id="${SNAPSHOT_ELEMENT_ID}" class="start-snapshot" aria-hidden="true" inert><p>rows</p></div><div style="display: contents">`
		);
		expect(out.startsWith('<!doctype html><html lang="en"><head>')).toBe(true);
	});

	it('carries the reader’s theme and text size to <html>, and nothing that loads', () => {
		expect(
			insertSnapshot(SHELL, '', { 'data-theme': 'dark', style: '--text-size: 112%' })
		).toContain('<html lang="en" data-theme="dark" style="--text-size: 112%">');
		expect(
			insertSnapshot(SHELL, '', { 'data-theme': '"><script>x</script>', style: 'x: url(a)' })
		).toContain('<html lang="en" data-theme="&quot;>&lt;script>x&lt;/script>">');
	});

	it('leaves out the module preloads: the copy is parsed and painted before the app is compiled', () => {
		const shell = SHELL.replace(
			'</head>',
			'<link href="/_app/immutable/entry/start.A1.js" rel="modulepreload">\n\t\t' +
				'<link href="/_app/immutable/assets/first-screen.B2.css" rel="stylesheet">\n\t\t' +
				"<link rel='modulepreload' href='./_app/immutable/nodes/0.C3.js'></head>"
		);
		const out = insertSnapshot(shell, '<p>rows</p>', {});
		expect(out).not.toContain('modulepreload');
		expect(out).toContain(
			'<link href="/_app/immutable/assets/first-screen.B2.css" rel="stylesheet">'
		);
		expect(out).toContain('<script src="/_app/immutable/bootstrap.js"></script>');
		// Without a snapshot the worker serves the shell as built, preloads and all (withSnapshot).
		expect(
			insertSnapshot('<p>no shell</p><link rel="modulepreload" href="/x.js">', '', {})
		).toContain('modulepreload');
	});

	it('leaves a shell without <html> or <body> as it is', () => {
		expect(insertSnapshot('<p>no shell</p>', '<p>rows</p>', {})).toBe('<p>no shell</p>');
	});

	it('reads the root attributes header defensively', () => {
		expect(parseRootAttributes(null)).toEqual({});
		expect(parseRootAttributes('not json')).toEqual({});
		expect(parseRootAttributes('[1]')).toEqual({});
		expect(parseRootAttributes('{"data-theme":"dark","onload":"x","style":3}')).toEqual({
			'data-theme': 'dark'
		});
	});

	it('accepts only styles that cannot load anything', () => {
		expect(inertStyle('height: 44px; transform: translateY(88px)')).toBe(true);
		for (const bad of ['background:url(x)', 'b: URL (x)', 'b: image-set("a" 1x)', '@import "x"'])
			expect(inertStyle(bad)).toBe(false);
		expect(inertStyle('b: u\\72l(x)')).toBe(false);
	});
});

describe('the snapshot belongs to one account', () => {
	const reader = 'reader@http://tt.example/api/';
	const second = 'second@http://tt.example/api/';

	afterEach(() => {
		setShownAccount(undefined);
		vi.unstubAllGlobals();
		document.body.innerHTML = '';
	});

	it('is shown only while the account it names is the one signed in', () => {
		expect(snapshotServes(reader, reader)).toBe(true);
		expect(snapshotServes(reader, second)).toBe(false);
		// Signed out: nobody's screen is shown.
		expect(snapshotServes(reader, undefined)).toBe(false);
		// Written before snapshots named their account.
		expect(snapshotServes(null, reader)).toBe(false);
	});

	it('is stamped with the account of the tab that wrote it', async () => {
		const puts: Response[] = [];
		vi.stubGlobal('caches', {
			open: () => Promise.resolve({ put: (_key: string, r: Response) => puts.push(r) }),
			delete: () => Promise.resolve(true)
		});
		history.replaceState(null, '', '/feed/-4');
		document.body.innerHTML =
			'<div style="display: contents"><div class="headline" data-article-id="1">A</div></div>';
		setShownAccount(reader);
		expect(await captureSnapshot('')).toBe(true);
		expect(puts.map((r) => r.headers.get(SNAPSHOT_ACCOUNT_HEADER))).toEqual([reader]);
		// A tab whose account signed out (another tab said so) writes none.
		setShownAccount(undefined);
		expect(await captureSnapshot('')).toBe(false);
		expect(puts).toHaveLength(1);
	});
});
