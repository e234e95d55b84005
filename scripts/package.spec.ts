/**
 * `npm run package` is reproducible: two runs for the same commit, each with its own build, give
 * byte-identical archives (issue 56), and what they record is fixed (names in order, owner 0:0,
 * modes 644/755, the commit's time). Two production builds: about 30 s here.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertClassicWorker, makePackage } from './package.js';

const dir = mkdtempSync(join(tmpdir(), 'package-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('npm run package', () => {
	it('gives the same bytes twice for one commit, with the licence and the notices inside', () => {
		const epoch = 1_790_000_000;
		const first = makePackage({ version: '9.9.9-spec', out: join(dir, 'a'), epoch });
		const second = makePackage({ version: '9.9.9-spec', out: join(dir, 'b'), epoch });
		expect(sha256(second.tar)).toBe(sha256(first.tar));
		expect(sha256(second.zip)).toBe(sha256(first.zip));
		expect(readFileSync(join(dir, 'b/SHA256SUMS'), 'utf8')).toBe(
			readFileSync(join(dir, 'a/SHA256SUMS'), 'utf8')
		);

		const tar = execFileSync('tar', ['-tvzf', first.tar, '--full-time', '--numeric-owner'], {
			encoding: 'utf8'
		})
			.trim()
			.split('\n');
		const time = new Date(epoch * 1000).toISOString().replace('T', ' ').slice(0, 19);
		for (const line of tar) {
			expect(line).toMatch(/^(-rw-r--r--|drwxr-xr-x) 0\/0 /);
			expect(line).toContain(` ${time} `);
		}
		const names = tar.map((line) => line.slice(line.indexOf(' reader') + 1));
		expect(names).toEqual(
			[...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
		);
		for (const file of ['LICENSE.txt', 'THIRD-PARTY-NOTICES.txt', 'init.php', 'index.html']) {
			expect(names).toContain(`reader/${file}`);
		}
		const zip = execFileSync('unzip', ['-Z1', first.zip], { encoding: 'utf8' }).trim().split('\n');
		expect(zip).toEqual(names.filter((name) => !name.endsWith('/')));

		// The notices name what the page and the worker bundle; the licence is GPL-3.0's text.
		const notices = execFileSync('tar', ['-xzOf', first.tar, 'reader/THIRD-PARTY-NOTICES.txt'], {
			encoding: 'utf8'
		});
		for (const name of ['@sveltejs/kit', 'dompurify', 'idb', 'svelte', 'workbox-window']) {
			expect(notices).toMatch(new RegExp(`^  ${name}@\\d`, 'm'));
		}
		expect(notices).not.toMatch(/^ {2}(vitest|typescript|eslint)@/m);
		const licence = execFileSync('tar', ['-xzOf', first.tar, 'reader/LICENSE.txt']);
		expect(licence.equals(readFileSync('LICENSE'))).toBe(true);
	}, 300_000);

	it('refuses a service worker that is not a classic script', () => {
		expect(() => assertClassicWorker('self.addEventListener("fetch", () => {});')).not.toThrow();
		expect(() => assertClassicWorker('const u = new URL("x", import.meta.url);')).toThrow(
			/not a classic script/
		);
		expect(() => assertClassicWorker('async function f() { return import("./a.js"); }')).toThrow(
			/imports a module at run time/
		);
	});
});
