import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importGraphs, loopsOf, report, runtimeImports } from './import-cycles.js';

const graph = (edges: Record<string, string[]>) =>
	new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('loopsOf', () => {
	it('finds no loop in a tree or a diamond', () => {
		expect(loopsOf(graph({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }))).toEqual([]);
	});

	it('finds a loop of four, not only pairs', () => {
		expect(
			loopsOf(graph({ keys: ['kv'], kv: ['open'], open: ['migrations'], migrations: ['keys'] }))
		).toEqual([['keys', 'kv', 'migrations', 'open']]);
	});

	it('finds each loop apart, with what hangs off them left out', () => {
		const loops = loopsOf(
			graph({ a: ['b'], b: ['a', 'c'], c: ['d'], d: ['e'], e: ['c'], f: ['a'] })
		);
		expect(loops).toEqual(
			expect.arrayContaining([
				['a', 'b'],
				['c', 'd', 'e']
			])
		);
		expect(loops).toHaveLength(2);
	});

	it('counts a node importing itself, and not a lone node', () => {
		expect(loopsOf(graph({ a: ['a'], b: [] }))).toEqual([['a']]);
	});

	it('takes a long chain without running out of stack', () => {
		const edges: Record<string, string[]> = {};
		for (let i = 0; i < 20_000; i++) edges[`n${i}`] = [`n${i + 1}`];
		edges['n20000'] = ['n0'];
		expect(loopsOf(graph(edges))[0]).toHaveLength(20_001);
	});
});

describe('runtimeImports', () => {
	it('keeps value imports, bare imports, re-exports and import(); leaves type-only out', () => {
		const text = [
			"import { a } from './a';",
			"import type { B } from './b';",
			"import { type C } from './c';",
			"import './d';",
			"export { e } from './e';",
			"export type { F } from './f';",
			"export * from './g';",
			"const h = () => import('./h');",
			'const i = \'import("./not-an-import")\';'
		].join('\n');
		expect(runtimeImports(text, 'x.ts')).toEqual(['./a', './c', './d', './e', './g', './h']);
	});

	it('reads every script block of a component', () => {
		const text = `<script module>import { a } from './a';</script>
<script lang="ts">import type { B } from './b'; import C from './C.svelte';</script>
<p>import { d } from './d';</p>`;
		expect(runtimeImports(text, 'X.svelte')).toEqual(['./a', './C.svelte']);
	});
});

describe('the check on a tree', () => {
	let repo = '';
	const write = (files: Record<string, string>) => {
		repo = mkdtempSync(join(tmpdir(), 'import-cycles-'));
		for (const [path, text] of Object.entries(files)) {
			mkdirSync(dirname(join(repo, path)), { recursive: true });
			writeFileSync(join(repo, path), text);
		}
	};
	afterEach(() => rmSync(repo, { recursive: true, force: true }));

	it('passes a tree without loops and counts its folders and edges', () => {
		write({
			'src/lib/db/open.ts': "import { migrations } from './migrations';",
			'src/lib/db/migrations.ts': "import type { Key } from '$lib/db/keys';",
			'src/lib/db/keys.ts': "import { open } from './open.js';",
			'src/lib/cache/read.ts': "import { open } from '$lib/db/open';",
			'src/routes/+page.svelte': "<script>import { read } from '$lib/cache/read';</script>"
		});
		const { files, folders } = importGraphs(repo);
		expect(files.get('src/lib/db/keys.ts')).toEqual(new Set(['src/lib/db/open.ts']));
		expect([...folders.entries()]).toEqual([
			['cache', new Set(['db'])],
			['db', new Set()]
		]);
		expect(report(repo)).toEqual({
			ok: true,
			lines: [
				'import cycles: 2 folders, 1 folder edges, 5 files, 4 file edges; file cycles: 0, folder loops: 0'
			]
		});
	});

	it('fails on a file cycle and on a folder loop, naming them; specs and test support are left out', () => {
		write({
			'src/lib/db/keys.ts': "import { isString } from './kv';",
			'src/lib/db/kv.ts': "import { openDb } from './open';",
			'src/lib/db/open.ts': "import { migrations } from './migrations';",
			'src/lib/db/migrations.ts':
				"import { OWNER } from './keys';\nimport { x } from '$lib/cache/x';",
			'src/lib/cache/x.ts': "export { y } from '../db/kv';",
			'src/lib/cache/x.spec.ts': "import { z } from '../outbox/z';",
			'src/lib/outbox/z.ts': "import { x } from '$lib/cache/x';",
			'src/lib/outbox/testing/fake.ts': "import { x } from '$lib/cache/x';"
		});
		const { lines, ok } = report(repo);
		expect(ok).toBe(false);
		expect(lines).toEqual([
			'file cycle (5 files): src/lib/cache/x.ts src/lib/db/keys.ts src/lib/db/kv.ts src/lib/db/migrations.ts src/lib/db/open.ts',
			'folder loop (2 folders): cache db',
			'import cycles: 3 folders, 3 folder edges, 6 files, 7 file edges; file cycles: 1, folder loops: 1'
		]);
	});

	it('exits 1 from the command line on a loop, 0 without', () => {
		write({ 'src/lib/a/a.ts': "import './b';", 'src/lib/a/b.ts': "import './a';" });
		const run = () => spawnSync('node', ['scripts/import-cycles.js', repo], { encoding: 'utf8' });
		const looped = run();
		expect(looped.status).toBe(1);
		expect(looped.stdout).toMatch(/file cycles: 1, folder loops: 0/);
		writeFileSync(join(repo, 'src/lib/a/b.ts'), '');
		const clean = run();
		expect(clean.status).toBe(0);
		expect(clean.stdout).toMatch(/file cycles: 0, folder loops: 0/);
	});
});
