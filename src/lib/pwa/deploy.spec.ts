import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cspDirectives, cspHeaderValue } from '../../../deploy/csp.js';
import { externalizeBootstrap } from '../../../deploy/externalize-bootstrap.js';
import { generate } from '../../../deploy/generate.js';
import { webManifest } from './manifest';

describe('deploy configurations', () => {
	it('are generated from deploy/csp.js and committed up to date', () => {
		expect(generate({ check: true })).toEqual([]);
	});

	it('carry the strict policy: no inline or eval script, nothing framing the app', () => {
		const policy = cspHeaderValue();
		expect(cspDirectives['script-src']).toEqual(["'self'"]);
		expect(policy).not.toMatch(/unsafe-eval/);
		expect(policy).toContain("object-src 'none'");
		expect(policy).toContain("base-uri 'none'");
		expect(policy).toContain("frame-ancestors 'none'");
		expect(policy).toContain("connect-src 'self'");
	});

	it('follow the base path', () => {
		const out = mkdtempSync(join(tmpdir(), 'deploy-'));
		try {
			generate({ base: '/tt-rss/reader', root: '/srv/reader', out });
			const apache = readFileSync(join(out, 'apache/40-ttrss-reader.conf'), 'utf8');
			expect(apache).toContain('Alias /tt-rss/reader /srv/reader');
			expect(apache).toContain('RewriteBase /tt-rss/reader/');
			const nginx = readFileSync(join(out, 'nginx/ttrss-reader.conf'), 'utf8');
			expect(nginx).toContain('location ^~ /tt-rss/reader/_app/immutable/');
		} finally {
			rmSync(out, { recursive: true, force: true });
		}
	});

	it('reject a base path with a trailing slash', () => {
		expect(() => generate({ base: '/reader/', check: true })).toThrow(/base/);
	});
});

describe('externalizeBootstrap', () => {
	let dir = '';
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('moves the inline script into a hashed file and leaves no inline script', async () => {
		dir = mkdtempSync(join(tmpdir(), 'bootstrap-'));
		mkdirSync(join(dir, '_app/immutable'), { recursive: true });
		const code =
			'{ __sveltekit_x = { base: "/reader" }; const element = document.currentScript.parentElement; }';
		writeFileSync(
			join(dir, 'index.html'),
			`<html><body><div><script>${code}</script></div></body></html>`
		);
		const written = await externalizeBootstrap({ dir, base: '/reader', appDir: '_app' });
		expect(written).toHaveLength(1);
		const html = readFileSync(join(dir, 'index.html'), 'utf8');
		expect(html).toBe(
			`<html><body><div><script src="/reader/${written[0]}"></script></div></body></html>`
		);
		expect(readdirSync(join(dir, '_app/immutable'))).toEqual([written[0]?.split('/').pop()]);
		expect(readFileSync(join(dir, written[0] ?? ''), 'utf8')).toBe(`${code}\n`);
	});

	it('fails the build when another inline script remains', async () => {
		dir = mkdtempSync(join(tmpdir(), 'bootstrap-'));
		mkdirSync(join(dir, '_app/immutable'), { recursive: true });
		writeFileSync(join(dir, 'index.html'), '<script type="module">alert(1)</script>');
		await expect(externalizeBootstrap({ dir, base: '', appDir: '_app' })).rejects.toThrow(
			/inline <script>/
		);
	});
});

describe('webManifest', () => {
	it.each(['', '/reader', '/tt-rss/reader'])('scopes everything to base %j', (base) => {
		const manifest = webManifest(base);
		expect(manifest.start_url).toBe(`${base}/`);
		expect(manifest.scope).toBe(`${base}/`);
		expect(manifest.id).toBe(`${base}/`);
		expect(manifest.share_target.action).toBe(`${base}/`);
		for (const icon of manifest.icons) expect(icon.src.startsWith(`${base}/icons/`)).toBe(true);
		expect(manifest.icons.filter((i) => i.purpose === 'maskable')).toHaveLength(2);
	});
});
