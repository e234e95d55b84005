// Browser plumbing for the benchmark: Chromium with the test suite's flags (their network guard
// costs nothing per request), an in-page probe (first headline painted, long tasks, frames) and a
// request counter (page over CDP, service worker through Playwright's context events).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { allowedHosts, chromiumLaunch } from '../chromium.config.js';

const root = new URL('../', import.meta.url);
export const testbed = JSON.parse(readFileSync(new URL('testbed/testbed.json', root), 'utf8'));

/**
 * One tt-rss API call straight to the test bed (a session id in `params` where the op needs one);
 * the bench's own set-up, never the app's path.
 * @param {string} op @param {Record<string, unknown>} params
 */
export async function api(op, params) {
	const r = await fetch(testbed.apiUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ op, ...params })
	});
	const body = await r.json();
	if (body.status !== 0) throw new Error(`${op}: ${JSON.stringify(body.content)}`);
	return body.content;
}

/** @param {import('@playwright/test').BrowserType} chromium */
export function launch(chromium) {
	return chromium.launch({
		...chromiumLaunch,
		args: [...chromiumLaunch.args]
	});
}

/** The browser's own guard's rule (chromium.config.js), to list what it refused. @param {string} url */
export function isAllowedUrl(url) {
	const u = new URL(url);
	if (['data:', 'blob:', 'about:', 'chrome-extension:'].includes(u.protocol)) return true;
	return allowedHosts.includes(u.hostname.toLowerCase());
}

/**
 * @typedef {object} ProbeConfig
 * @property {string} target selector of the element whose first paint is measured
 * @property {string} [click] selector clicked (in the page, no round trip) as soon as it appears
 * @property {string} [hash] location hash set before the page's scripts run (tt-rss: the feed to open)
 * @property {string} [hashPath] only on this path
 * @property {string} [settings] localStorage 'reader.settings' to set before the app starts
 * @property {string[]} [milestones] selectors whose first appearance is also timed (wall clock)
 */

/**
 * Runs in every document before its scripts. Records, in wall-clock ms (timeOrigin + now):
 * `painted` — the end of the frame in which `target` first exists: a task queued from that frame's
 * animation callback, which runs once the frame's style, layout and paint are done (until
 * 2026-11-30 it was the animation callback itself, before them: a first frame's own style and layout
 * were left out, and a page whose first frame cost more in style, as the app's icon images did, was
 * not seen slower);
 * long tasks (PerformanceObserver 'longtask'); optionally clicks `click` once it appears.
 * @param {ProbeConfig} cfg
 */
function probe(cfg) {
	const now = () => performance.timeOrigin + performance.now();
	const rec = {
		painted: /** @type {number | null} */ (null),
		fromSnapshot: /** @type {boolean | null} */ (null),
		longTasks: /** @type {{ start: number, duration: number }[]} */ ([]),
		clicked: false,
		/** @type {Record<string, number>} */
		seen: {}
	};
	/** @type {any} */ (window).__bench = rec;
	if (cfg.settings) {
		try {
			localStorage.setItem('reader.settings', cfg.settings);
		} catch {
			// opaque origins (about:blank) have no storage
		}
	}
	if (cfg.hash && location.pathname === cfg.hashPath && !location.hash) {
		history.replaceState(null, '', cfg.hash);
	}
	try {
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) {
				rec.longTasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration });
			}
		}).observe({ type: 'longtask', buffered: true });
	} catch {
		// no long task API
	}
	let waiting = false;
	const check = () => {
		for (const sel of cfg.milestones ?? []) {
			if (!(sel in rec.seen) && document.querySelector(sel)) rec.seen[sel] = now();
		}
		if (cfg.click && !rec.clicked) {
			const link = document.querySelector(cfg.click);
			// Never a link of the start snapshot (inert, before the app runs): a reader cannot click
			// it, and a programmatic click would navigate to the same page again, without end.
			// Nor a link to the page already open (a warm start of /feed/-4): clicked before the
			// app's router is ready, it reloads the document mid-start (seen at 4× on the phone).
			const here = link instanceof HTMLAnchorElement && link.pathname === location.pathname;
			if (link instanceof HTMLElement && !link.closest('[inert]') && !here) {
				rec.clicked = true;
				link.click();
			}
		}
		const found = rec.painted === null && !waiting ? document.querySelector(cfg.target) : null;
		if (found) {
			waiting = true;
			// Whether the first row painted is the worker's start snapshot (inert HTML, before the
			// app runs) or the app's own: the two starts differ by a whole boot.
			rec.fromSnapshot = found.closest('.start-snapshot') !== null;
			requestAnimationFrame(() => {
				// A message's task runs after the rendering this callback is part of.
				const after = new MessageChannel();
				after.port1.onmessage = () => {
					rec.painted = now();
					// Reported through a CDP binding where the harness set one (see watchPaint): nothing
					// of the harness then runs in the page while it starts.
					const report = /** @type {any} */ (window).__benchPainted;
					if (typeof report === 'function') report(String(rec.painted));
				};
				after.port2.postMessage(null);
			});
		}
	};
	const observer = new MutationObserver(check);
	observer.observe(document, { childList: true, subtree: true });
}

/**
 * @param {import('@playwright/test').BrowserContext} context
 * @param {ProbeConfig} cfg
 */
export async function addProbe(context, cfg) {
	await context.addInitScript(probe, cfg);
}

/** The first paint each watched page's probe reported (wall-clock ms). */
const reportedPaints = new WeakMap();

/**
 * Lets the page's probe report its paint through a CDP binding (a native function; bindings survive
 * navigations) instead of being polled with page.evaluate: the first evaluate in a document
 * installs Playwright's utility script on the main thread (~50 ms with the CPU slowed four times)
 * in the middle of the start being measured, and every poll is one more task there.
 * @param {import('@playwright/test').Page} page @param {import('@playwright/test').CDPSession} cdp
 */
async function watchPaint(page, cdp) {
	/** @type {Promise<number>} */
	const reported = new Promise((resolve) => {
		cdp.on('Runtime.bindingCalled', (e) => {
			if (e.name === '__benchPainted') resolve(Number(e.payload));
		});
	});
	await cdp.send('Runtime.enable'); // bindingCalled is only reported with the domain on
	await cdp.send('Runtime.addBinding', { name: '__benchPainted' });
	reportedPaints.set(page, reported);
}

/**
 * Waits for the probe's paint and returns it (wall-clock ms).
 * @param {import('@playwright/test').Page} page
 */
export async function waitPainted(page, timeout = 60_000) {
	/** @type {Promise<number> | undefined} */
	const reported = reportedPaints.get(page);
	if (reported) {
		/** @type {ReturnType<typeof setTimeout> | undefined} */
		let timer;
		const late = new Promise((_resolve, reject) => {
			timer = setTimeout(
				() => reject(new Error(`no first headline within ${timeout} ms on ${page.url()}`)),
				timeout
			);
		});
		try {
			return await Promise.race([reported, late]);
		} finally {
			clearTimeout(timer);
		}
	}
	// Otherwise polled from here rather than with waitForFunction: the page may navigate meanwhile
	// (tt-rss's sign-in is a form POST and a redirect), which ends any in-page wait.
	const end = Date.now() + timeout;
	while (Date.now() < end) {
		const painted = await page
			.evaluate(() => /** @type {any} */ (window).__bench?.painted ?? null)
			.catch(() => null);
		if (typeof painted === 'number') return painted;
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error(`no first headline within ${timeout} ms on ${page.url()}`);
}

/**
 * @typedef {{ url: string, start: number, end?: number, op?: string, bytes: number, source: 'network'|'cache'|'sw'|'failed'|'pending', from: 'page'|'worker', type: string, timing?: ReqTiming }} Req
 * @typedef {{ swMs: number, waitMs: number, bodyMs: number, headersAt: number }} ReqTiming
 *   CDP's timing of a page request: `swMs` from the worker's start (or its fetch event) to the
 *   request's send (0 when no worker saw it); `waitMs` the send to the answer's headers (proxy and
 *   server); `bodyMs` the headers to the body's last byte; `headersAt` the headers' monotonic ms
 */

/** A tt-rss API call's op, from its POST body. @param {string | null | undefined} body */
function apiOp(body) {
	return /"op"\s*:\s*"([^"]+)"/.exec(body ?? '')?.[1];
}

/**
 * Counts every request of a page (CDP: disk/memory cache and service-worker hits told apart) and
 * of the context's service workers (their own network fetches, e.g. the app's API calls when the
 * worker passes them on). `between(t0, t1)` lists those started in that wall-clock window.
 * @param {import('@playwright/test').BrowserContext} context
 * @param {import('@playwright/test').Page} page
 */
export async function countRequests(context, page) {
	/** @type {Map<string, Req>} */
	const byId = new Map();
	/** @type {Req[]} */
	const all = [];
	const cdp = await context.newCDPSession(page);
	cdp.on('Network.requestWillBeSent', (e) => {
		if (e.request.url.startsWith('data:')) return;
		const r = /** @type {Req} */ ({
			url: e.request.url,
			start: e.wallTime * 1000,
			bytes: 0,
			source: 'pending',
			from: 'page',
			type: e.type ?? ''
		});
		// tt-rss API calls are all POSTs to one URL: keep the op to tell them apart.
		const op = apiOp(e.request.postData);
		if (op) r.op = op;
		byId.set(e.requestId, r);
		all.push(r);
	});
	cdp.on('Network.requestServedFromCache', (e) => {
		const r = byId.get(e.requestId);
		if (r) r.source = 'cache';
	});
	cdp.on('Network.responseReceived', (e) => {
		const r = byId.get(e.requestId);
		if (!r) return;
		const t = e.response.timing;
		if (t) {
			const from =
				t.workerStart >= 0 ? t.workerStart : t.workerFetchStart >= 0 ? t.workerFetchStart : -1;
			r.timing = {
				swMs: from >= 0 && t.sendStart >= 0 ? t.sendStart - from : 0,
				waitMs: t.receiveHeadersEnd - t.sendStart,
				bodyMs: 0,
				headersAt: t.requestTime * 1000 + t.receiveHeadersEnd
			};
		}
		if (e.response.fromServiceWorker) r.source = 'sw';
		else if (e.response.fromDiskCache || e.response.fromPrefetchCache) r.source = 'cache';
		else if (r.source === 'pending') r.source = 'network';
	});
	cdp.on('Network.loadingFinished', (e) => {
		const r = byId.get(e.requestId);
		if (!r) return;
		r.end = Date.now();
		if (r.timing) r.timing.bodyMs = e.timestamp * 1000 - r.timing.headersAt;
		if (r.source === 'network') r.bytes = e.encodedDataLength;
	});
	cdp.on('Network.loadingFailed', (e) => {
		const r = byId.get(e.requestId);
		if (r) r.source = 'failed';
	});
	await cdp.send('Network.enable');
	await watchPaint(page, cdp);

	/** @param {import('@playwright/test').Request} request */
	const onWorkerRequest = (request) => {
		if (!request.serviceWorker()) return;
		const r = /** @type {Req} */ ({
			url: request.url(),
			start: Date.now(),
			bytes: 0,
			source: 'pending',
			from: 'worker',
			type: request.resourceType()
		});
		// The page's API calls pass through the worker once it controls the page (the page's
		// side is then `sw`): the worker's own request is the one on the network, op and all.
		const op = apiOp(request.postData());
		if (op) r.op = op;
		all.push(r);
		request
			.response()
			.then(async (response) => {
				if (!response) {
					r.source = 'failed';
					return;
				}
				await response.finished();
				const s = await request.sizes();
				r.bytes = s.responseBodySize + s.responseHeadersSize;
				r.source = r.bytes > 0 ? 'network' : 'cache';
			})
			.catch(() => {
				r.source = 'failed';
			});
	};
	context.on('request', onWorkerRequest);
	return {
		cdp,
		/** @param {number} t0 @param {number} t1 */
		between: (t0, t1) => all.filter((r) => r.start >= t0 - 1 && r.start <= t1),
		stop: () => context.off('request', onWorkerRequest)
	};
}

/** @param {Req[]} reqs */
export function summarize(reqs) {
	const net = reqs.filter((r) => r.source === 'network' || r.source === 'pending');
	return {
		requests: net.length,
		bytes: net.reduce((s, r) => s + r.bytes, 0),
		fromCacheOrWorker: reqs.filter((r) => r.source === 'cache' || r.source === 'sw').length,
		failed: reqs.filter((r) => r.source === 'failed').length,
		blocked: reqs.filter((r) => !isAllowedUrl(r.url)).map((r) => r.url)
	};
}

/**
 * @param {import('@playwright/test').Page} page
 * @param {import('@playwright/test').CDPSession} cdp
 * @param {number} rate
 */
export async function throttle(page, cdp, rate) {
	if (rate > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate });
	void page;
}

/** @param {number[]} xs */
export function median(xs) {
	const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
	if (s.length === 0) return NaN;
	const m = Math.floor(s.length / 2);
	const at = (/** @type {number} */ i) => /** @type {number} */ (s[i]);
	return s.length % 2 ? at(m) : (at(m - 1) + at(m)) / 2;
}

/** @param {number[]} xs @param {number} p */
export function percentile(xs, p) {
	const s = [...xs].sort((a, b) => a - b);
	if (s.length === 0) return NaN;
	return /** @type {number} */ (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]);
}

/**
 * The machine's processes as the bench sorts them: the web server (apache2, php-fpm, nginx),
 * PostgreSQL, and this bench's own children by name (Chromium's processes, `vite preview`'s node),
 * each with its CPU time so far (ms, user + system).
 * @returns {{ pid: number, kind: 'webServer' | 'postgres' | 'chromium' | 'preview', ms: number }[]}
 */
function benchProcesses() {
	const tick = 1000 / 100; // USER_HZ is 100 on Linux
	/** @type {Map<number, { ppid: number, comm: string, ms: number }>} */
	const procs = new Map();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		let stat;
		try {
			stat = readFileSync(`/proc/${name}/stat`, 'utf8');
		} catch {
			continue; // gone meanwhile
		}
		// "pid (comm) state ppid … utime stime …": comm may hold spaces, so split after its ')'.
		const close = stat.lastIndexOf(')');
		const comm = stat.slice(stat.indexOf('(') + 1, close);
		const f = stat.slice(close + 2).split(' ');
		procs.set(Number(name), {
			ppid: Number(f[1]),
			comm,
			ms: (Number(f[11]) + Number(f[12])) * tick
		});
	}
	/** @param {number} pid */
	const ours = (pid) => {
		for (let p = pid, i = 0; p > 1 && i < 50; i++) {
			if (p === process.pid) return true;
			p = procs.get(p)?.ppid ?? 0;
		}
		return false;
	};
	/** @type {ReturnType<typeof benchProcesses>} */
	const out = [];
	for (const [pid, p] of procs) {
		if (/^(apache2|php-fpm|nginx)/.test(p.comm)) out.push({ pid, kind: 'webServer', ms: p.ms });
		else if (p.comm.startsWith('postgres')) out.push({ pid, kind: 'postgres', ms: p.ms });
		else if (pid !== process.pid && ours(pid)) {
			if (/chrom/i.test(p.comm)) out.push({ pid, kind: 'chromium', ms: p.ms });
			else if (p.comm === 'node' || p.comm.startsWith('npm'))
				out.push({ pid, kind: 'preview', ms: p.ms });
		}
	}
	return out;
}

/**
 * CPU time (ms, user + system) used so far by the processes that share the machine during a
 * bench: this bench's own children by name (Chromium's processes, `vite preview`'s node), the
 * web server (apache2, php-fpm, nginx) and PostgreSQL. Two readings' difference tells where a
 * step's CPU went; whatever else ran meanwhile shows in the load average only.
 * @returns {Record<string, number>}
 */
export function cpuTimes() {
	/** @type {Record<string, number>} */
	const out = { chromium: 0, preview: 0, webServer: 0, postgres: 0 };
	for (const p of benchProcesses()) out[p.kind] = (out[p.kind] ?? 0) + p.ms;
	return out;
}

/**
 * `BENCH_SPLIT_CPUS=1`: the server's side on CPU 0 (the web server, PostgreSQL, and `vite
 * preview`, which stands in for the web server that serves the app in a deployment) and the
 * client's on the others (this bench and its Chromium; processes they start later inherit it), as
 * a phone reading a server elsewhere sees it: the browser's CPU no longer slows the server's
 * answers. Returns what gives every one of them all CPUs back. Without the variable, or on one
 * CPU, nothing changes.
 * @returns {{ split: boolean, undo: () => void }}
 */
export function splitCpus() {
	const cpus = availableParallelism();
	if (!process.env.BENCH_SPLIT_CPUS || cpus < 2) return { split: false, undo: () => {} };
	const pin = (/** @type {number} */ pid, /** @type {string} */ list) => {
		try {
			execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
		} catch {
			// Gone meanwhile, or not ours to move: it keeps every CPU.
		}
	};
	pin(process.pid, `1-${cpus - 1}`);
	for (const p of benchProcesses()) pin(p.pid, p.kind === 'chromium' ? `1-${cpus - 1}` : '0');
	return {
		split: true,
		undo: () => {
			for (const p of [...benchProcesses(), { pid: process.pid }]) pin(p.pid, `0-${cpus - 1}`);
		}
	};
}

/** @param {Record<string, number>} a @param {Record<string, number>} b the later reading */
export function cpuSince(a, b) {
	return Object.fromEntries(Object.keys(b).map((k) => [k, Math.round(b[k] - (a[k] ?? 0))]));
}
