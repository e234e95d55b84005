#!/usr/bin/env node
/**
 * `node scripts/chaos-summary.js [log.jsonl …]`: the figures of the chaos runs a log holds (the
 * harness appends one line per schedule: tests/chaos/run.ts, CHAOS_LOG, by default
 * chaos-results/log.jsonl), one column per engine, as docs/reliability.md shows them. A long run
 * may be added up over several runs and logs. `--since <ISO time>` counts the lines from then on.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const sinceAt = args.indexOf('--since');
const since = sinceAt >= 0 ? args.splice(sinceAt, 2)[1] : undefined;
const files = args.length > 0 ? args : ['chaos-results/log.jsonl'];

/** @typedef {{ at: string, engine: string, server?: string, seed: number, requests?: number, ops: { kind: string, done: boolean, note?: string }[], faults: Record<string, number>, anomalies: { kind: string, detail: string }[], failedShown: number, nudged: boolean, ms: number }} Line */
/** @type {Line[]} */
const lines = files
	.flatMap((f) => readFileSync(f, 'utf8').split('\n'))
	.filter((l) => l.trim() !== '')
	.map((l) => JSON.parse(l))
	.filter((l) => since === undefined || l.at >= since);

const WIRE = ['refuse', 'hang', 'delay', 'cut', '502', '504', 'lost'];
/** Faults outside the wire: the schedule's operations that are faults, when done. */
const OUTSIDE = {
	'offline and back': (o) => o.kind === 'network' && o.note === 'offline',
	'reload mid-write': (o) => o.kind === 'reload-mid-write',
	'worker stopped': (o) => o.kind === 'stop-worker',
	'session deleted on the server': (o) => o.kind === 'session-end',
	'PostgreSQL restarted': (o) => o.kind === 'postgres-restart',
	// V3 and V4 schedules (seeds from 4,000,000): a step that was not skipped.
	'tab closed mid-write (Firefox: browser restarted)': (o) =>
		o.kind === 'tab-close-mid-write' && !o.note?.includes('skipped:'),
	'second tab acting': (o) => o.kind === 'second-tab' && !o.note?.includes('skipped:'),
	// V5 and V6 (seeds from 4,800,000 and 5,000,000).
	'browser killed (Firefox: restarted)': (o) =>
		o.kind === 'browser-kill' && /killed|restart|closed and opened/.test(o.note ?? ''),
	'storage full': (o) => o.kind === 'storage-full' && !o.note?.includes('skipped:'),
	'second account signed in and out': (o) => o.kind === 'second-account'
};
/** The V3 and V4 schedules' reader operations, counted when done (tests/chaos/run.ts). */
const LATER_OPS = {
	'notes saved': (o) => o.kind === 'note',
	'bulk Mark unread / Unstar': (o) => o.kind === 'bulk-unread' || o.kind === 'bulk-unstar',
	'bulk action undone': (o) => o.kind === 'bulk-undo',
	'mark above/below undone': (o) => o.kind === 'beside-undo' && o.note?.includes('undone'),
	'pages shared': (o) => o.kind === 'share',
	"Undo at the window's edge": (o) => o.kind === 'undo-edge',
	'… of which undone': (o) => o.kind === 'undo-edge' && / undone$/.test(o.note ?? ''),
	'Undo 1–4 s after the window': (o) => o.kind === 'undo-late',
	'… of which undone all the same (must be 0)': (o) =>
		o.kind === 'undo-late' && /AFTER ITS WINDOW/.test(o.note ?? ''),
	'bulk labels': (o) => o.kind === 'bulk-label'
};

const engines = [...new Set(lines.map((l) => l.engine))].sort();
/** @param {(ls: Line[]) => string | number} f */
const row = (name, f) =>
	`| ${name} | ${engines.map((e) => f(lines.filter((l) => l.engine === e))).join(' | ')} |`;
const sum = (ls, f) => ls.reduce((n, l) => n + f(l), 0);
const seeds = (ls) => {
	const s = [...new Set(ls.map((l) => l.seed))].sort((a, b) => a - b);
	return s.length === 0 ? '' : `${s[0]}–${s[s.length - 1]}`;
};

console.log(`| | ${engines.join(' | ')} |`);
console.log(`| --- | ${engines.map(() => '---').join(' | ')} |`);
console.log(row('schedules', (ls) => ls.length));
console.log(row('seeds', seeds));
console.log(row('servers', (ls) => [...new Set(ls.map((l) => l.server ?? 'current'))].join(', ')));
console.log(
	row('seconds each (min / mean / max)', (ls) => {
		const ms = ls.map((l) => l.ms);
		return ms.length === 0
			? ''
			: `${(Math.min(...ms) / 1000).toFixed(1)} / ${(sum(ls, (l) => l.ms) / ls.length / 1000).toFixed(1)} / ${(Math.max(...ms) / 1000).toFixed(1)}`;
	})
);
console.log(
	row(
		'reader operations (done)',
		(ls) =>
			`${sum(ls, (l) => l.ops.length)} (${sum(ls, (l) => l.ops.filter((o) => o.done).length)})`
	)
);
console.log(
	row('API requests through the proxy', (ls) => {
		// Lines written before the log kept the count have none.
		const counted = ls.filter((l) => l.requests !== undefined);
		const n = sum(counted, (l) => l.requests ?? 0);
		return counted.length === ls.length ? n : `${n} (in ${counted.length} of ${ls.length})`;
	})
);
console.log(
	row(`faults: ${WIRE.join(' / ')}`, (ls) =>
		WIRE.map((k) => sum(ls, (l) => l.faults[k] ?? 0)).join(' / ')
	)
);
for (const [name, is] of Object.entries(OUTSIDE))
	console.log(row(name, (ls) => sum(ls, (l) => l.ops.filter((o) => o.done && is(o)).length)));
for (const [name, is] of Object.entries(LATER_OPS))
	console.log(row(name, (ls) => sum(ls, (l) => l.ops.filter((o) => o.done && is(o)).length)));
console.log(row('outbox drained only after the reload', (ls) => ls.filter((l) => l.nudged).length));
console.log(
	row('changes only written ahead at that reload (a start queued them)', (ls) =>
		sum(ls, (l) => l.strandedAhead ?? 0)
	)
);
console.log(row('changes the app listed as failed', (ls) => sum(ls, (l) => l.failedShown)));
console.log(
	row('anomalies', (ls) => {
		const by = {};
		for (const l of ls) for (const a of l.anomalies) by[a.kind] = (by[a.kind] ?? 0) + 1;
		const kinds = Object.entries(by);
		return kinds.length === 0 ? '**0**' : kinds.map(([k, n]) => `${k} ${n}`).join(', ');
	})
);
const failing = lines.filter((l) => l.anomalies.length > 0);
if (failing.length > 0)
	console.log(`\nSeeds with anomalies: ${failing.map((l) => `${l.engine} ${l.seed}`).join(', ')}`);
