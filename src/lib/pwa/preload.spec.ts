import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstScreenChunks, onFirstScreen } from '../../../deploy/first-screen-chunks.js';
import { addPreloads, firstScreenFiles } from '../../../deploy/preload-first-screen.js';

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A SvelteKit outDir as a build leaves it: generated route nodes and Vite's client manifest. */
function outDir(nodes: Record<string, string>, manifest: object): string {
	const dir = mkdtempSync(join(tmpdir(), 'preload-'));
	dirs.push(dir);
	mkdirSync(join(dir, 'generated/client-optimized/nodes'), { recursive: true });
	mkdirSync(join(dir, 'output/client/.vite'), { recursive: true });
	for (const [name, source] of Object.entries(nodes)) {
		writeFileSync(join(dir, 'generated/client-optimized/nodes', name), source);
	}
	writeFileSync(join(dir, 'output/client/.vite/manifest.json'), JSON.stringify(manifest));
	return dir;
}

const node = (route: string) => `export { default as component } from "../../../../${route}";`;
const key = (n: number) => `.svelte-kit/generated/client-optimized/nodes/${n}.js`;

describe('first-screen preloads', () => {
	const routes = [
		'src/routes/(app)/+layout.svelte',
		'src/routes/(app)/[kind=kind]/[id]/+page.svelte'
	];

	it('lists the route nodes of the first screen with everything they import, once', async () => {
		const dir = outDir(
			{ '2.js': node(routes[0] ?? ''), '5.js': node(routes[1] ?? ''), '6.js': node('other') },
			{
				[key(2)]: { file: '_app/immutable/nodes/2.a.js', imports: ['_A.js'], css: ['2.css'] },
				[key(5)]: { file: '_app/immutable/nodes/5.b.js', imports: ['_A.js', '_B.js'] },
				[key(6)]: { file: '_app/immutable/nodes/6.c.js', imports: ['_C.js'] },
				'_A.js': { file: '_app/immutable/chunks/A.js', imports: ['_B.js'] },
				'_B.js': { file: '_app/immutable/chunks/B.js', css: ['B.css'] },
				'_C.js': { file: '_app/immutable/chunks/C.js' }
			}
		);
		expect(await firstScreenFiles({ outDir: dir, routes })).toEqual({
			js: [
				'_app/immutable/chunks/A.js',
				'_app/immutable/chunks/B.js',
				'_app/immutable/nodes/2.a.js',
				'_app/immutable/nodes/5.b.js'
			],
			css: ['2.css', 'B.css']
		});
	});

	it('fails the build when a first-screen route has no node (a renamed route)', async () => {
		const dir = outDir({ '2.js': node(routes[0] ?? '') }, { [key(2)]: { file: 'x.js' } });
		await expect(firstScreenFiles({ outDir: dir, routes })).rejects.toThrow(
			/no route node for src\/routes\/\(app\)\/\[kind=kind\]/
		);
	});

	it('adds only the links the page does not have yet, under the base path', () => {
		const html = '<head><link href="/r/a.js" rel="modulepreload"></head><body></body>';
		const { html: out, added } = addPreloads(html, { js: ['a.js', 'b.js'], css: ['c.css'] }, '/r');
		expect(added).toBe(2);
		expect(out).toContain('<link href="/r/b.js" rel="modulepreload">');
		expect(out).toContain('<link href="/r/c.css" rel="stylesheet">');
		expect(out.match(/\/r\/a\.js/g)).toHaveLength(1);
		expect(addPreloads(out, { js: ['a.js', 'b.js'], css: ['c.css'] }, '/r').added).toBe(0);
	});
});

describe('first-screen chunks', () => {
	const root = '/app';
	/** A module graph by static importers, as Rolldown's chunking context reports it. */
	function graph(importers: Record<string, string[]>) {
		return {
			getModuleInfo: (id: string) => (id in importers ? { importers: importers[id] ?? [] } : null)
		};
	}
	const ctx = graph({
		[`${root}/src/hooks.client.ts`]: [],
		[`${root}/src/lib/boot/early-reads.ts`]: [`${root}/src/hooks.client.ts`],
		[`${root}/src/lib/cache/cache-reads.ts`]: [
			`${root}/src/lib/boot/early-reads.ts`,
			`${root}/src/lib/cache/cycle.ts`
		],
		[`${root}/src/lib/cache/cycle.ts`]: [`${root}/src/lib/cache/cache-reads.ts`],
		[`${root}/src/routes/(app)/[kind=kind]/[id]/+layout.svelte`]: [],
		[`${root}/src/lib/components/HeadlineRow.svelte`]: [
			`${root}/src/routes/(app)/[kind=kind]/[id]/+layout.svelte`
		],
		[`${root}/src/lib/components/HeadlineRow.svelte?svelte&type=style&lang.css`]: [
			`${root}/src/lib/components/HeadlineRow.svelte`
		],
		[`${root}/src/routes/(app)/[kind=kind]/[id]/[article]/+page.svelte`]: [],
		[`${root}/src/lib/content/sanitize.ts`]: [
			`${root}/src/routes/(app)/[kind=kind]/[id]/[article]/+page.svelte`
		],
		[`${root}/node_modules/dompurify/dist/purify.es.mjs`]: [`${root}/src/lib/content/sanitize.ts`],
		[`${root}/src/lib/orphan-cycle-a.ts`]: [`${root}/src/lib/orphan-cycle-b.ts`],
		[`${root}/src/lib/orphan-cycle-b.ts`]: [`${root}/src/lib/orphan-cycle-a.ts`]
	});

	it('take what the entry and the first screen reach by static imports, styles included', () => {
		for (const id of [
			'src/hooks.client.ts',
			'src/lib/cache/cache-reads.ts',
			'src/lib/cache/cycle.ts',
			'src/lib/components/HeadlineRow.svelte',
			'src/lib/components/HeadlineRow.svelte?svelte&type=style&lang.css'
		]) {
			expect(onFirstScreen(`${root}/${id}`, ctx), id).toBe(true);
		}
	});

	it('leave out what only other screens import, and import cycles reached from nowhere', () => {
		for (const id of [
			'src/routes/(app)/[kind=kind]/[id]/[article]/+page.svelte',
			'src/lib/content/sanitize.ts',
			'node_modules/dompurify/dist/purify.es.mjs',
			'src/lib/orphan-cycle-a.ts',
			'src/lib/unknown.ts'
		]) {
			expect(onFirstScreen(`${root}/${id}`, ctx), id).toBe(false);
		}
	});

	it('group the framework apart from the app, ahead of it', () => {
		const [framework, app] = firstScreenChunks().groups;
		expect(framework.name).toBe('framework');
		expect(framework.test.test(`${root}/node_modules/svelte/src/internal/client/index.js`)).toBe(
			true
		);
		expect(framework.test.test(`${root}/node_modules/dompurify/dist/purify.es.mjs`)).toBe(false);
		expect(framework.priority).toBeGreaterThan(app.priority);
		expect(app.name(`${root}/src/lib/cache/cache-reads.ts`, ctx)).toBe('first-screen');
		expect(app.name(`${root}/src/lib/content/sanitize.ts`, ctx)).toBeNull();
	});
});
