// The start guard (issue 57): the app's warm and offline starts beside the floor (a one-headline
// page in a new tab, bench/scenarios.js FLOOR_HTML) in one Chromium, interleaved run by run, at 1×
// and at 4× CPU in a phone's window. Fails when a start's median is over GUARD_MAX_RATIO (2) times
// the floor's median of the same pass, and prints both figures either way. A ratio measured in one
// run holds on a loaded machine, where an absolute time does not (the warm start doubled from
// 2026-11-25 to 12-06 unnoticed while the bench's absolute budgets were read for one row only).
//
//   node scripts/start-guard.js [buildDir]   default build/ (built first when it is missing)
//   GUARD_RUNS=n (3)  GUARD_MAX_RATIO=x (2)  TESTBED=debian|current (current), or TTRSS_URL
//
// Needs the test bed (a sign-in, then the reopened tabs make no request); takes /tmp/e2e-run.lock
// itself unless run under it. About a minute on 2 cores.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { launch, median } from '../bench/browser.js';
import { appServer } from '../bench/app-server.js';
import { lockHeldByAncestor, TESTBED_LOCK } from './testbed-lock.js';
import { appStarts, FLOOR_HTML, floorStart } from '../bench/scenarios.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const LOCK = TESTBED_LOCK;
const args = process.argv.slice(2).filter((a) => a !== '--locked');
const BUILD_DIR = args[0] ?? 'build';
const RUNS = Number(process.env.GUARD_RUNS) || 3;
const MAX_RATIO = Number(process.env.GUARD_MAX_RATIO) || 2;
/** The passes: [CPU slow-down, phone window], as the bench's first and last. */
const PASSES = /** @type {const} */ ([
	[1, false],
	[4, true]
]);

/** @param {string} msg */
const log = (msg) =>
	console.error(`[start-guard ${new Date().toISOString().slice(11, 19)}] ${msg}`);

if (!process.argv.includes('--locked') && !lockHeldByAncestor()) {
	if (!existsSync(resolve(ROOT, BUILD_DIR, 'index.html'))) {
		log(`no build in ${BUILD_DIR}: building it`);
		const b = spawnSync('npx', ['vite', 'build'], {
			cwd: ROOT,
			stdio: ['ignore', 'ignore', 'inherit'],
			env: { ...process.env, BUILD_DIR }
		});
		if (b.status !== 0) process.exit(b.status ?? 1);
	}
	log(`waiting for ${LOCK} (the test bed is shared)`);
	const r = spawnSync(
		'flock',
		[LOCK, process.execPath, fileURLToPath(import.meta.url), '--locked', ...args],
		{ cwd: ROOT, stdio: 'inherit' }
	);
	process.exit(r.status ?? 1);
}

/** The test bed's server the app's /tt-rss/ goes to (testbed/testbed.json). */
function ttrssUrl() {
	if (process.env.TTRSS_URL) return process.env.TTRSS_URL;
	const bed = JSON.parse(readFileSync(`${ROOT}testbed/testbed.json`, 'utf8'));
	const name = process.env.TESTBED ?? 'current';
	return name === 'debian' ? bed.url : (bed.servers[name]?.url ?? bed.url);
}

/** Serves FLOOR_HTML on a free loopback port. @returns {Promise<{ url: string, close: () => void }>} */
function floorServer() {
	const server = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(FLOOR_HTML);
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			const a = /** @type {import('node:net').AddressInfo} */ (server.address());
			resolve({ url: `http://127.0.0.1:${a.port}/`, close: () => server.close() });
		})
	);
}

const started = Date.now();
const app = await appServer(resolve(ROOT, BUILD_DIR), ttrssUrl());
const origin = app.origin;
const floor = await floorServer();
const browser = await launch(chromium);
let failed = false;
/** @type {string[]} */
const lines = [];
try {
	for (const [cpu, phone] of PASSES) {
		const warm = [];
		const offline = [];
		const floors = [];
		let fromSnapshot = 0;
		for (let i = 0; i < RUNS; i++) {
			log(`CPU ${cpu}×${phone ? ', phone' : ''}, run ${i + 1}/${RUNS}`);
			const app = await appStarts(browser, { cpu, origin, phone });
			const f = await floorStart(browser, { cpu, phone, url: floor.url });
			warm.push(app.warm.ms);
			offline.push(app.offline.ms);
			floors.push(f.ms);
			if (app.warm.phases.fromSnapshot) fromSnapshot++;
		}
		const fl = median(floors);
		const tag = `CPU ${cpu}×${phone ? ', phone' : ''}`;
		for (const [name, xs] of /** @type {const} */ ([
			['warm start', warm],
			['offline start', offline]
		])) {
			const m = median(xs);
			const ratio = m / fl;
			const over = ratio > MAX_RATIO;
			failed ||= over;
			lines.push(
				`${over ? 'FAIL' : 'ok  '} ${`${name}, ${tag}:`.padEnd(30)} ${Math.round(m)} ms against the floor's ${Math.round(fl)} ms = ${ratio.toFixed(2)}× (limit ${MAX_RATIO}×; runs ${xs.map(Math.round).join(', ')}; floor ${floors.map(Math.round).join(', ')})`
			);
		}
		lines.push(
			`     warm starts painted from the start snapshot, ${tag}: ${fromSnapshot} of ${RUNS}`
		);
	}
} finally {
	await browser.close();
	floor.close();
	app.close();
}
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
	`start guard: ${BUILD_DIR}, ${RUNS} runs a pass, medians, load ${load}, ${Math.round((Date.now() - started) / 1000)} s`
);
for (const line of lines) console.log(line);
if (failed) {
	console.log(`start guard: FAILED — a start is over ${MAX_RATIO}× the floor measured beside it`);
	process.exit(1);
}
console.log('start guard: passed');
process.exit(0);
