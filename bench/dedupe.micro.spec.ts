/**
 * "Same story shown once" over a long list: 20,000 rows grouped (budget 50 ms, docs/benchmarks.md),
 * in three shapes — a mixed list (50 feeds, a story in several feeds now and then), one feed's
 * series under one title, and every row of 50 feeds under one title (6.7 s before the grouping
 * became linear) — and the memo's answer to a read (new row objects, the same stories).
 */
import { loadavg } from 'node:os';
import { expect, it } from 'vitest';
import { duplicatesMemo, groupDuplicates, type DedupeRow } from '$lib/dedupe/dedupe';

const N = 20_000;
const RUNS = 15;
const TEXT =
	'The council agreed on Tuesday to extend the tram line to the northern districts by the end of next year';

function mixed(): DedupeRow[] {
	return Array.from({ length: N }, (_, i) => {
		const story = i % 7 === 0 ? Math.floor(i / 21) : i; // every 7th row: a story in 3 feeds
		return {
			id: i + 1,
			feedId: i % 50,
			// Half the links carry a query (an article id, or tracking parameters only).
			link: `https://site${story % 300}.example/news/${story}${story % 2 ? '?utm_source=rss' : ''}`,
			title: `Story number ${story} about the tram line and more`,
			excerpt: `${story} ${TEXT}`,
			updated: 1_800_000_000 + i * 60
		};
	});
}

function oneTitle(feeds: number): DedupeRow[] {
	return Array.from({ length: N }, (_, i) => ({
		id: i + 1,
		feedId: i % feeds,
		link: `https://site.example/p/${i}`,
		title: 'Daily digest of the news for today',
		excerpt: TEXT,
		updated: 1_800_000_000 + i * 60
	}));
}

/**
 * p50 and max of the wall time, and p50 of the CPU time this process spent (user + system): on a
 * machine busy with other work the wall time counts the waits for a core, the CPU time does not.
 */
/**
 * The rows as the app gets them: parsed from the server's JSON or read from IndexedDB, whose
 * strings are flat (a string built here with a template is a rope, which the first look flattens).
 */
function asReceived(rows: DedupeRow[]): DedupeRow[] {
	return JSON.parse(JSON.stringify(rows)) as DedupeRow[];
}

function time(run: () => unknown): { p50: number; max: number; cpu: number } {
	run(); // warm
	const times: number[] = [];
	const cpus: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		(globalThis as { gc?: () => void }).gc?.();
		const cpu = process.cpuUsage();
		const started = performance.now();
		run();
		times.push(performance.now() - started);
		const used = process.cpuUsage(cpu);
		cpus.push((used.user + used.system) / 1000);
	}
	times.sort((a, b) => a - b);
	cpus.sort((a, b) => a - b);
	return {
		p50: times[Math.floor(RUNS / 2)]!,
		max: times[RUNS - 1]!,
		cpu: cpus[Math.floor(RUNS / 2)]!
	};
}

function print(label: string, { p50, max, cpu }: { p50: number; max: number; cpu: number }): void {
	const verdict = p50 <= 50 ? 'met' : 'MISSED';
	console.log(
		`[bench] group ${N} rows, ${label}: p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms, CPU p50 ${cpu.toFixed(1)} ms (budget 50 ms p50: ${verdict}); load ${loadavg()[0]!.toFixed(1)}`
	);
}

it('groups 20,000 rows', () => {
	const shapes: [string, DedupeRow[]][] = [
		['mixed list', asReceived(mixed())],
		['one feed, one title', asReceived(oneTitle(1))],
		['50 feeds, one title', asReceived(oneTitle(50))]
	];
	for (const [label, rows] of shapes) {
		// Cold: every key made anew (other texts each run); again: the same list grouped again.
		const inputs = Array.from({ length: RUNS + 1 }, (_, run) =>
			asReceived(rows.map((r) => ({ ...r, link: `${r.link}-${run}`, title: `${r.title} ${run}` })))
		);
		let next = 0;
		expect(groupDuplicates(rows).shown.length).toBeGreaterThan(0);
		print(
			`${label}, cold`,
			time(() => groupDuplicates(inputs[next++]!))
		);
		print(
			`${label}, again`,
			time(() => groupDuplicates(rows))
		);
	}
	const rows = asReceived(mixed());
	const memo = duplicatesMemo();
	memo(rows);
	let flip = false;
	print(
		'a read after (memo)',
		time(() => {
			flip = !flip;
			return memo(rows.map((r, i) => (i === 5 ? { ...r, unread: flip } : r)));
		})
	);
	expect(memo.regrouped).toBe(1);
});
