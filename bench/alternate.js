// Alternated starts of several builds in one Chromium (issue 57): for each round, each build's
// cold, warm and offline start (bench/scenarios.js appStarts, as `npm run bench`) followed by the
// floor (a one-headline page in a new tab); the order reverses every other round. Prints each
// start as it goes (stderr) and, per build, the medians, the ratio to the floor of its own runs,
// how many warm starts the start snapshot painted, and the renderer's main-thread time until the
// first headline frame (script / style / layout / all tasks: less moved by a loaded machine than
// wall-clock time).
//
//   flock /tmp/e2e-run.lock node bench/alternate.js ROUNDS CPU PHONE name=buildDir ...
//     e.g. 3 1 0 old=/tmp/bis-eca0057/build new=.svelte-kit/bench-build   (PHONE: 1 or 0)
//   TTRSS_URL=… (default: the test bed's Debian server, as the bench)
//   MOCK=1: no test bed (no lock needed): /tt-rss/ answers with the recorded replies of
//     tests/fixtures/recorded (one reply per op); the warm and offline starts make no request,
//     so they compare builds as well; the cold start does not measure a server then.
//
// Builds of old commits: `git worktree add /tmp/bis-<hash> <hash>`, node_modules symlinked, then
// `npx svelte-kit sync && npx vite build` there (their own build/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { appServer } from './app-server.js';
import { launch, median, testbed } from './browser.js';
import { appStarts, FLOOR_HTML, floorStart } from './scenarios.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const [roundsArg, cpuArg, phoneArg, ...buildArgs] = process.argv.slice(2);
const ROUNDS = Number(roundsArg) || 3;
const CPU = Number(cpuArg) || 1;
const PHONE = phoneArg === '1';
if (buildArgs.length === 0) {
	console.error('usage: node bench/alternate.js ROUNDS CPU PHONE name=buildDir ...');
	process.exit(2);
}

const VARIANT =
	/wrong|failed|exists|unknown|no-session|api-off|after-failure|bad-field|html|error|podcast|starred|limit/;

/** A loopback stand-in for tt-rss: the recorded successful reply of each op. */
function recordedReplies() {
	/** @type {Record<string, any>} */
	const byOp = {};
	for (const level of ['api15', 'api23']) {
		const dir = join(ROOT, 'tests/fixtures/recorded', level);
		for (const file of readdirSync(dir)) {
			const r = JSON.parse(readFileSync(join(dir, file), 'utf8'));
			// One plain answer of each op, not the recorded failures and narrower variants.
			if (r.httpStatus !== 200 || r.reply?.status !== 0 || VARIANT.test(file)) continue;
			byOp[r.op] = r.reply;
		}
	}
	const server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			/** @type {{ op?: string, seq?: number }} */
			let asked = {};
			try {
				asked = JSON.parse(body);
			} catch {
				// not JSON: answered as an unknown op
			}
			const reply = (asked.op && byOp[asked.op]) ?? {
				status: 1,
				content: { error: 'UNKNOWN_METHOD' }
			};
			res.writeHead(200, { 'content-type': 'text/json;charset=UTF-8' });
			res.end(JSON.stringify({ ...reply, seq: asked.seq ?? 0 }));
		});
	});
	return new Promise((done) =>
		server.listen(0, '127.0.0.1', () => {
			server.unref();
			const a = /** @type {import('node:net').AddressInfo} */ (server.address());
			done(`http://127.0.0.1:${a.port}/tt-rss/`);
		})
	);
}

const ttrss =
	process.env.MOCK === '1' ? await recordedReplies() : (process.env.TTRSS_URL ?? testbed.url);
const builds = [];
for (const arg of buildArgs) {
	const at = arg.indexOf('=');
	const name = arg.slice(0, at);
	const dir = resolve(arg.slice(at + 1));
	if (at < 1 || !existsSync(join(dir, 'index.html'))) throw new Error(`no build in ${arg}`);
	builds.push({ name, app: await appServer(dir, ttrss), runs: /** @type {any[]} */ ([]) });
}
const floorServer = createServer((_req, res) => {
	res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
	res.end(FLOOR_HTML);
});
const floorUrl = await new Promise((done) =>
	floorServer.listen(0, '127.0.0.1', () => {
		floorServer.unref();
		const a = /** @type {import('node:net').AddressInfo} */ (floorServer.address());
		done(`http://127.0.0.1:${a.port}/`);
	})
);

const browser = await launch(chromium);
try {
	for (let round = 0; round < ROUNDS; round++) {
		for (const b of round % 2 ? [...builds].reverse() : builds) {
			const app = await appStarts(browser, { cpu: CPU, origin: b.app.origin, phone: PHONE });
			const floor = await floorStart(browser, { cpu: CPU, phone: PHONE, url: floorUrl });
			const w = app.warm.phases;
			b.runs.push({
				cold: app.cold.ms,
				warm: app.warm.ms,
				offline: app.offline.ms,
				floor: floor.ms,
				w
			});
			console.error(
				`${b.name} r${round + 1}: cold ${Math.round(app.cold.ms)} warm ${Math.round(app.warm.ms)}${w.fromSnapshot ? ' (snapshot)' : ''} offline ${Math.round(app.offline.ms)} floor ${Math.round(floor.ms)}; document ${Math.round(w.htmlEnd)} ms, DOMContentLoaded ${Math.round(w.domContentLoaded)} ms, marks ${w.marks.join(', ')}`
			);
		}
	}
} finally {
	await browser.close();
	for (const b of builds) b.app.close();
}
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
	`${new Date().toISOString()}, CPU ${CPU}×${PHONE ? ', phone' : ''}, ${ROUNDS} rounds, load ${load}; medians`
);
for (const b of builds) {
	/** @param {(r: any) => number} f */
	const m = (f) => median(b.runs.map(f));
	const floor = m((r) => r.floor);
	/** @param {number} n */
	const x = (n) => `${Math.round(n)} ms (${(n / floor).toFixed(1)}× floor)`;
	const snap = b.runs.filter((r) => r.w.fromSnapshot).length;
	console.log(
		`${b.name}: warm ${x(m((r) => r.warm))}, offline ${x(m((r) => r.offline))}, cold ${Math.round(m((r) => r.cold))} ms, floor ${Math.round(floor)} ms; snapshot ${snap}/${b.runs.length}; main thread until the first headline frame: script ${Math.round(m((r) => r.w.renderer.scriptMs))} / style ${Math.round(m((r) => r.w.renderer.styleMs))} / layout ${Math.round(m((r) => r.w.renderer.layoutMs))} / tasks ${Math.round(m((r) => r.w.renderer.taskMs))} ms`
	);
}
process.exit(0);
