// `node bench/long-tasks.js <trace.json> [buildDir] [minMs]`: what ran inside each long task of a
// Chrome trace written by the interaction session (BENCH_TRACE_SESSION, bench/interact.js). For every task
// of the page's main thread over minMs (50 by default): its time, the renderer's own work in it
// (style, layout, paint, parsing, GC) and the functions the CPU samples put most time in (self
// time), with the app's own frame each sample was under. With the build's directory and a build
// made with `npx vite build --sourcemap`, the app's frames are named by its sources.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

const [tracePath, buildDir, minArg] = process.argv.slice(2);
if (!tracePath) {
	console.error('usage: node bench/long-tasks.js <trace.json> [buildDir] [minMs]');
	process.exit(2);
}
const MIN_US = Number(minArg ?? 50) * 1000;
const raw = JSON.parse(readFileSync(tracePath, 'utf8'));
/** @type {any[]} */
const events = Array.isArray(raw) ? raw : raw.traceEvents;

// The page's main threads (a renderer's CrRendererMain).
const mainThreads = new Set(
	events
		.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
		.map((e) => `${e.pid}:${e.tid}`)
);
const onMain = (/** @type {any} */ e) => mainThreads.has(`${e.pid}:${e.tid}`);

// CPU samples of the main threads: [time µs, node] with each profile's node tree.
/** @type {Map<string, { thread: string, start: number, nodes: Map<number, any>, samples: [number, number][], t: number }>} */
const profiles = new Map();
for (const e of events) {
	if (e.name === 'Profile' && onMain(e)) {
		profiles.set(`${e.pid}:${e.id}`, {
			thread: `${e.pid}:${e.tid}`,
			start: e.args.data.startTime,
			nodes: new Map(),
			samples: [],
			t: e.args.data.startTime
		});
	}
}
for (const e of events) {
	if (e.name !== 'ProfileChunk') continue;
	const p = profiles.get(`${e.pid}:${e.id}`);
	if (!p) continue;
	const data = e.args.data;
	for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
	const ids = data.cpuProfile?.samples ?? [];
	const deltas = data.timeDeltas ?? [];
	for (let i = 0; i < ids.length; i++) {
		p.t += deltas[i] ?? 0;
		p.samples.push([p.t, ids[i]]);
	}
}
const samples = [...profiles.values()].flatMap((p) =>
	p.samples.map(([t, id], i, all) => ({
		t,
		dur: i + 1 < all.length ? Math.min(all[i + 1][0] - t, 10_000) : 0,
		node: p.nodes.get(id),
		nodes: p.nodes
	}))
);
samples.sort((a, b) => a.t - b.t);

// Source maps of the build, for the app's own frames.
/** @type {Map<string, SourceMapConsumer | null>} */
const maps = new Map();
function mapOf(/** @type {string} */ url) {
	if (!buildDir) return null;
	if (maps.has(url)) return maps.get(url) ?? null;
	let consumer = null;
	const path = new URL(url).pathname;
	const file = join(buildDir, path) + '.map';
	if (existsSync(file)) consumer = new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8')));
	maps.set(url, consumer);
	return consumer;
}
const isApp = (/** @type {string} */ url) => /\/_app\/immutable\//.test(url ?? '');
function frameName(/** @type {any} */ cf) {
	const base = cf.functionName || '(anonymous)';
	if (!cf.url) return base;
	if (!isApp(cf.url)) return `${base} ${cf.url.split('/').pop()}`;
	const m = mapOf(cf.url)?.originalPositionFor({
		line: cf.lineNumber + 1,
		column: cf.columnNumber
	});
	if (m?.source) {
		const src = m.source.replace(/^.*?\/src\//, 'src/').replace(/^.*node_modules\//, '');
		return `${m.name ?? base} ${src}:${m.line}`;
	}
	return `${base} ${cf.url.split('/').pop()}:${cf.lineNumber + 1}`;
}
/** The innermost app frame a sample is under (the app's code that led to it). */
function appFrame(/** @type {any} */ node, /** @type {Map<number, any>} */ nodes) {
	/** @type {any} */
	let n = node;
	const parents = parentOf(nodes);
	while (n) {
		if (isApp(n.callFrame.url) && !/node_modules/.test(frameName(n.callFrame))) return n;
		n = parents.get(n.id);
	}
	return undefined;
}
/** @type {WeakMap<Map<number, any>, Map<number, any>>} */
const parentCache = new WeakMap();
function parentOf(/** @type {Map<number, any>} */ nodes) {
	let p = parentCache.get(nodes);
	if (!p) {
		p = new Map();
		for (const n of nodes.values()) for (const c of n.children ?? []) p.set(c, n);
		parentCache.set(nodes, p);
	}
	return p;
}

const RENDERER = {
	UpdateLayoutTree: 'style',
	'Document::updateStyleAndLayoutTree': 'style',
	Layout: 'layout',
	Paint: 'paint',
	PrePaint: 'paint',
	Layerize: 'paint',
	ParseHTML: 'parse HTML',
	ParseAuthorStyleSheet: 'parse CSS',
	MinorGC: 'GC',
	MajorGC: 'GC',
	'V8.GC_SCAVENGER': 'GC',
	'BlinkGC.AtomicPhase': 'GC'
};

const tasks = events
	.filter((e) => e.name === 'RunTask' && e.ph === 'X' && onMain(e) && e.dur >= MIN_US)
	.sort((a, b) => a.ts - b.ts);
const first = tasks[0]?.ts ?? 0;
/** Over all the tasks: the same two sums. @type {Map<string, number>} */
const allSelf = new Map();
/** @type {Map<string, number>} */
const allUnder = new Map();
const add = (
	/** @type {Map<string, number>} */ m,
	/** @type {string} */ k,
	/** @type {number} */ v
) => m.set(k, (m.get(k) ?? 0) + v);
console.log(`${tasks.length} tasks of at least ${MIN_US / 1000} ms on the main thread`);
for (const task of tasks) {
	const end = task.ts + task.dur;
	/** @type {Record<string, number>} */
	const renderer = {};
	for (const e of events) {
		if (e.ph !== 'X' || !onMain(e) || e.pid !== task.pid || e.tid !== task.tid) continue;
		if (e.ts < task.ts || e.ts >= end) continue;
		const kind = /** @type {Record<string, string>} */ (RENDERER)[e.name];
		if (kind) renderer[kind] = (renderer[kind] ?? 0) + e.dur / 1000;
	}
	/** @type {Map<string, number>} */
	const self = new Map();
	/** @type {Map<string, number>} */
	const under = new Map();
	let sampled = 0;
	for (const s of samples) {
		if (s.t < task.ts || s.t >= end || !s.node) continue;
		sampled += s.dur / 1000;
		const name = frameName(s.node.callFrame);
		self.set(name, (self.get(name) ?? 0) + s.dur / 1000);
		add(allSelf, name, s.dur / 1000);
		const app = appFrame(s.node, s.nodes);
		const appName = app ? frameName(app.callFrame) : '(no app frame)';
		under.set(appName, (under.get(appName) ?? 0) + s.dur / 1000);
		add(allUnder, appName, s.dur / 1000);
	}
	const top = (/** @type {Map<string, number>} */ m, n = 6) =>
		[...m]
			.filter(([k]) => !/^\(idle\)/.test(k))
			.sort((a, b) => b[1] - a[1])
			.slice(0, n)
			.map(([k, v]) => `    ${v.toFixed(1).padStart(6)} ms  ${k}`)
			.join('\n');
	console.log(
		`\n+${((task.ts - first) / 1e6).toFixed(2)} s: ${(task.dur / 1000).toFixed(0)} ms` +
			` (JS sampled ${sampled.toFixed(0)} ms; ` +
			Object.entries(renderer)
				.map(([k, v]) => `${k} ${v.toFixed(0)}`)
				.join(', ') +
			')'
	);
	console.log('  under app frame:\n' + top(under));
	console.log('  self:\n' + top(self));
}

const totalMs = tasks.reduce((t, task) => t + task.dur / 1000, 0);
console.log(`\nall ${tasks.length} tasks: ${totalMs.toFixed(0)} ms`);
for (const [title, m] of /** @type {const} */ ([
	['under app frame', allUnder],
	['self', allSelf]
])) {
	console.log(`  ${title}:`);
	for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 25))
		console.log(`    ${v.toFixed(0).padStart(6)} ms  ${k}`);
}
