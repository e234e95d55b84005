import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cspHeaderValue, metaCspDirectives } from '../../../deploy/csp.js';
import {
	makePortable,
	portableBootstrap,
	portableHtml,
	portableManifest
} from '../../../deploy/portable.js';
import { messages as german } from '$lib/i18n/generated/de';
import { manifestMessages, webManifest } from './manifest';

// The shape SvelteKit's fallback page and bootstrap have in a build whose base is '' (what
// deploy/externalize-bootstrap.js leaves behind).
const BOOTSTRAP = `{
	__sveltekit_abc = {
		base: ""
	};
	const element = document.currentScript.parentElement;
	Promise.all([
		import("/_app/immutable/entry/start.X.js"),
		import("/_app/immutable/entry/app.Y.js")
	]).then(([kit, app]) => kit.start(app, element));
}`;

const HTML = `<!doctype html><html><head>
<meta charset="utf-8" />
<link rel="manifest" href="/manifest.webmanifest" />
<link href="/_app/immutable/entry/start.X.js" rel="modulepreload">
<link href="https://example.org/x.css" rel="stylesheet">
</head><body><div style="display: contents"><script src="/_app/immutable/bootstrap.Z.js"></script></div></body></html>`;

describe('the portable build', () => {
	it('finds its base at run time from the bootstrap script, wherever the folder is', () => {
		const code = portableBootstrap(BOOTSTRAP);
		expect(code).not.toContain('base: ""');
		expect(code).not.toMatch(/import\("\//);
		// Run it as a browser would, with the script at two folder depths.
		for (const [src, base] of [
			[
				'https://h.test/tt-rss/plugins.local/reader/_app/immutable/bootstrap.Z.js',
				'/tt-rss/plugins.local/reader'
			],
			['https://h.test/_app/immutable/bootstrap.Z.js', '']
		] as const) {
			const imported: string[] = [];
			const sandbox: Record<string, unknown> = {
				URL,
				document: { currentScript: { src, parentElement: {} } },
				importer: (url: string) => {
					imported.push(url);
					return new Promise(() => undefined);
				}
			};
			// import() is swapped for a recorder: the script runs as a classic script would.
			runInNewContext(code.replace(/\bimport\(/g, 'importer('), sandbox);
			const globals = sandbox as { __sveltekit_abc?: { base: string } };
			expect(globals.__sveltekit_abc?.base).toBe(base);
			expect(imported).toEqual([
				`https://h.test${base}/_app/immutable/entry/start.X.js`,
				`https://h.test${base}/_app/immutable/entry/app.Y.js`
			]);
		}
	});

	it('refuses a bootstrap of another shape rather than ship a broken one', () => {
		expect(() => portableBootstrap('{ __x = { base: "/reader" }; }')).toThrow(/shape/);
	});

	it('names its own files from the folder and carries the policy in the document', () => {
		const html = portableHtml(HTML);
		expect(html).toContain('href="./manifest.webmanifest"');
		expect(html).toContain('href="./_app/immutable/entry/start.X.js"');
		expect(html).toContain('src="./_app/immutable/bootstrap.Z.js"');
		expect(html).toContain('href="https://example.org/x.css"');
		expect(html).toContain(
			`<meta http-equiv="Content-Security-Policy" content="${cspHeaderValue(metaCspDirectives)}" />`
		);
		// A meta policy cannot carry frame-ancestors; everything else is the header's policy.
		expect(cspHeaderValue(metaCspDirectives)).not.toContain('frame-ancestors');
		expect(cspHeaderValue(metaCspDirectives)).toContain("script-src 'self'");
	});

	it('has a manifest relative to its own address, with the start address as its id', () => {
		const manifest = portableManifest({ ...webManifest('') });
		expect(manifest).toMatchObject({
			start_url: './',
			scope: './',
			share_target: { action: './' },
			protocol_handlers: [{ protocol: 'web+feed', url: './?to=/subscribe&url=%s' }],
			file_handlers: [{ action: './?to=/settings/subscriptions' }]
		});
		expect(manifest).not.toHaveProperty('id');
		for (const icon of manifest.icons as { src: string }[])
			expect(icon.src).toMatch(/^\.\/icons\//);
		expect(() => portableManifest({ ...webManifest('/reader') })).toThrow(/start_url/);
	});

	it("makes every language's manifest relative, not only the source language's", async () => {
		const dir = mkdtempSync(join(tmpdir(), 'portable-'));
		try {
			mkdirSync(join(dir, '_app/immutable'), { recursive: true });
			writeFileSync(join(dir, 'index.html'), HTML);
			writeFileSync(join(dir, '_app/immutable/bootstrap.Z.js'), BOOTSTRAP);
			writeFileSync(join(dir, 'manifest.webmanifest'), JSON.stringify(webManifest('')));
			writeFileSync(
				join(dir, 'manifest.de.webmanifest'),
				JSON.stringify(webManifest('', await manifestMessages('de'), 'de'))
			);
			await makePortable({ dir, page: 'index.html' });
			for (const file of ['manifest.webmanifest', 'manifest.de.webmanifest']) {
				const manifest = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<
					string,
					unknown
				>;
				expect(manifest, file).toMatchObject({ start_url: './', scope: './' });
				// The shortcuts open lists under the folder the app is in, wherever that is.
				for (const shortcut of manifest.shortcuts as { url: string; icons: { src: string }[] }[]) {
					expect(shortcut.url, file).toMatch(/^\.\/\?to=\/feed\/-?\d+$/);
					for (const icon of shortcut.icons) expect(icon.src, file).toMatch(/^\.\/icons\//);
				}
				expect(manifest.id, file).toBeUndefined();
			}
			expect(
				JSON.parse(readFileSync(join(dir, 'manifest.de.webmanifest'), 'utf8')) as unknown
			).toMatchObject({ lang: 'de', name: german.app_name() });
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
