#!/usr/bin/env node
/**
 * `npm run soak`: the outbox's model-based test (src/lib/outbox/model.spec.ts) with many more
 * random fault schedules than CI runs — 100,000 by default (SOAK_RUNS, and a fifth as many of
 * the reader's world, issue 55), split over one Vitest
 * process per core (SOAK_WORKERS), each with its own seed — then the summed figures. Exits non-zero
 * when any schedule broke a property (its counterexample and seed are in that worker's output) or
 * when a change was lost, leaked, duplicated or left stuck.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const total = Number(process.env.SOAK_RUNS ?? 100_000);
const workers = Math.max(1, Number(process.env.SOAK_WORKERS ?? availableParallelism()));
const baseSeed = Number(process.env.SOAK_SEED ?? Date.now() % 1_000_000_000);
const dir = mkdtempSync(join(tmpdir(), 'soak-'));
const started = Date.now();

console.log(
	`soak: ${total} schedules over ${workers} workers, seeds ${baseSeed}…${baseSeed + workers - 1}`
);

function runWorker(index) {
	const runs = Math.floor(total / workers) + (index < total % workers ? 1 : 0);
	const out = join(dir, `figures-${index}.json`);
	return new Promise((resolve) => {
		const child = spawn(
			'npx',
			['vitest', 'run', '--project', 'unit', 'src/lib/outbox/model.spec.ts'],
			{
				env: {
					...process.env,
					SOAK_RUNS: String(runs),
					SOAK_SEED: String(baseSeed + index),
					SOAK_FIGURES: out
				},
				stdio: ['ignore', 'pipe', 'pipe']
			}
		);
		let log = '';
		child.stdout.on('data', (d) => (log += d));
		child.stderr.on('data', (d) => (log += d));
		child.on('close', (code) => {
			let figures;
			try {
				figures = JSON.parse(readFileSync(out, 'utf8'));
			} catch {
				figures = undefined;
			}
			resolve({ index, code, log, figures });
		});
	});
}

const results = await Promise.all(Array.from({ length: workers }, (_, i) => runWorker(i)));
rmSync(dir, { recursive: true, force: true });

const sum = {};
for (const { figures } of results) {
	if (!figures) continue;
	for (const [key, value] of Object.entries(figures)) {
		if (typeof value === 'number') sum[key] = (sum[key] ?? 0) + value;
		else {
			sum[key] ??= {};
			for (const [k, n] of Object.entries(value)) sum[key][k] = (sum[key][k] ?? 0) + n;
		}
	}
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const faults = Object.entries(sum.faults ?? {})
	.map(([k, n]) => `${k} ${n}`)
	.join(', ');
const faultTotal = Object.values(sum.faults ?? {}).reduce((a, b) => a + b, 0);
console.log(`soak figures (${minutes} min):
  schedules          ${sum.schedules ?? 0} (of them the reader's world ${sum.readerSchedules ?? 0})
  actions            ${sum.actions ?? 0} (reader changes ${sum.readerChanges ?? 0}, refused by full storage ${sum.refusedByStorage ?? 0})
  requests           ${sum.requests ?? 0}
  faults injected    ${faultTotal + (sum.quotaWriteFailures ?? 0)}: ${faultTotal} on the wire (${faults}), ${sum.quotaWriteFailures ?? 0} writes refused by full storage
  failed list        ${sum.failedItems ?? 0} items, each explaining a change not applied
  changes lost       ${sum.lost ?? 0}
  leaked or widened  ${sum.leaked ?? 0}
  shares duplicated  ${sum.duplicates ?? 0}
  stuck in outbox    ${sum.stuck ?? 0}
  cache checked      ${sum.cacheCompared ?? 0} cached articles against the server, ${sum.cacheMismatches ?? 0} mismatches
  pages died writing ${sum.pageDeaths ?? 0}, ${sum.kills ?? 0} of them with the browser killed (changes their next start queued ${sum.recovered ?? 0})
  workers stopped    ${sum.deadSenders ?? 0} with a request on its way (${sum.lateLandings ?? 0} landed later)
  evicted            ${sum.evicted ?? 0} articles, ${sum.evictedNamed ?? 0} of them named by a queued or failed change
  list rows checked  ${sum.screenRowsCompared ?? 0} against the reader's changes, ${sum.screenMismatches ?? 0} showing an older state
  reader's world     ${sum.engineSyncs ?? 0} real syncs (${sum.shifts ?? 0} with the list moving up between pages), ${sum.elsewhere ?? 0} articles read elsewhere, ${sum.rulesMade ?? 0} rules made (${sum.ruleActs ?? 0} of their changes expected), ${sum.copiesTaken ?? 0} copies a read took along
  unseen changes     ${sum.unseenChanges ?? 0} (a change nobody asked for, on an article the reader never saw)`);

const broken = results.filter((r) => r.code !== 0 || !r.figures);
for (const r of broken) {
	console.log(`\nworker ${r.index} (seed ${baseSeed + r.index}) failed:\n${r.log.slice(-6000)}`);
}
const bad =
	(sum.lost ?? 0) +
	(sum.leaked ?? 0) +
	(sum.duplicates ?? 0) +
	(sum.stuck ?? 0) +
	(sum.cacheMismatches ?? 0) +
	(sum.evictedNamed ?? 0) +
	(sum.screenMismatches ?? 0) +
	(sum.unseenChanges ?? 0);
process.exit(broken.length > 0 || bad > 0 || (sum.schedules ?? 0) < total ? 1 : 0);
