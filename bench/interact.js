// `npm run bench -- --only interact` (issue 28): a scripted reading session in the built app, on the
// small account (the seed) and the big one (bench/big-setup.sh), in a phone window (390 × 844,
// touch) and a desktop window, at 1× and 4× CPU. Each interaction's latency is what the Event Timing
// API measures in the page (PerformanceObserver 'event', durationThreshold 16: an interaction's
// latency is the longest of its events, from the input to the next paint); INP by web-vitals' rule
// (the worst, skipping one per 50 interactions); long tasks ('longtask'); layout and style time
// (CDP Performance.getMetrics, LayoutDuration and RecalcStyleDuration, the renderer's own totals).
//   BENCH_INTERACT=small:phone:4,big:desktop:1   only those sessions
//   BENCH_PROFILE=1                               a V8 CPU profile per step (top self time)
//   BENCH_TRACE_SESSION=dir                       a Chrome trace of each session (with CPU samples)
//                                                 into dir; `node bench/long-tasks.js <trace>` names
//                                                 what ran inside each long task
//   BENCH_TRACE_CATEGORIES=viz,gpu                more trace categories in it
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { api, median, testbed, throttle } from './browser.js';
import { APP_HEADLINE } from './scenarios.js';
import { bigAvailable, nextSync, profiled } from './big-bench.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** @typedef {import('@playwright/test').Browser} Browser */
/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {import('@playwright/test').CDPSession} CDPSession */

/** Runs in every document before its scripts: event timing and long tasks, page clock. */
function ixProbe() {
	const rec = {
		/** @type {{ name: string, id: number, start: number, dur: number, wait: number, run: number }[]} */
		events: [],
		/** @type {{ start: number, dur: number }[]} */
		longTasks: []
	};
	/** @type {any} */ (window).__ix = rec;
	try {
		new PerformanceObserver((list) => {
			for (const e of /** @type {any[]} */ (list.getEntries())) {
				rec.events.push({
					name: e.name,
					id: e.interactionId ?? 0,
					start: e.startTime,
					dur: e.duration,
					// Input delay (waiting for the main thread) and the handlers' own time.
					wait: e.processingStart - e.startTime,
					run: e.processingEnd - e.processingStart
				});
			}
		}).observe(/** @type {any} */ ({ type: 'event', durationThreshold: 16, buffered: true }));
	} catch {
		// no Event Timing
	}
	try {
		new PerformanceObserver((list) => {
			for (const e of list.getEntries())
				rec.longTasks.push({ start: e.startTime, dur: e.duration });
		}).observe({ type: 'longtask', buffered: true });
	} catch {
		// no long tasks API
	}
}

/** INP as web-vitals computes it: the worst interaction, skipping one per 50. @param {number[]} xs */
export function inpOf(xs, count = xs.length) {
	const s = [...xs].sort((a, b) => b - a);
	if (s.length === 0) return 0;
	return /** @type {number} */ (s[Math.min(s.length - 1, Math.floor(count / 50))]);
}

/** @param {CDPSession} cdp */
async function metrics(cdp) {
	const { metrics: m } = await cdp.send('Performance.getMetrics');
	const get = (/** @type {string} */ n) => (m.find((x) => x.name === n)?.value ?? 0) * 1000;
	return { layout: get('LayoutDuration'), style: get('RecalcStyleDuration') };
}

/** Two frames and a little: the event entries of what just happened are reported after its paint. */
function settled(/** @type {Page} */ page) {
	return page.evaluate(
		() =>
			new Promise((resolve) =>
				requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 60)))
			)
	);
}

/** The category with the most unread articles (the big account: "Topic 01", 5,000). */
async function busiestCategory() {
	const { session_id: sid } = await api('login', {
		user: testbed.user,
		password: testbed.password
	});
	const cats = /** @type {{ id: number | string, title: string, unread: number }[]} */ (
		await api('getCategories', { sid })
	);
	const best = cats
		.map((c) => ({ ...c, id: Number(c.id) }))
		.filter((c) => c.id >= 0)
		.sort((a, b) => b.unread - a.unread)[0];
	if (!best) throw new Error('no category');
	return best;
}

/**
 * One scripted session. @param {Browser} browser @param {string} origin
 * @param {{ account: string, phone: boolean, cpu: number, log: (m: string) => void }} opts
 */
async function session(browser, origin, { account, phone, cpu, log }) {
	execFileSync('bash', [account === 'big' ? 'bench/big-use-db.sh' : 'testbed/reset.sh'], {
		cwd: ROOT,
		stdio: 'ignore'
	});
	const cat = await busiestCategory();
	const context = await browser.newContext({
		viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
		hasTouch: phone,
		isMobile: phone
	});
	await context.addInitScript(ixProbe);
	const page = await context.newPage();
	await page.goto(`${origin}/login`);
	await page.evaluate(() => localStorage.setItem('reader.syncIntervalMs', '3000'));
	await page.reload();
	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((u) => !u.pathname.endsWith('/login'));
	// The session starts once the first full sync is done (a reader's usual day), with no further
	// sync in it: what is measured is the reader's own actions.
	const synced = await nextSync(page, 0);
	await page.evaluate(() => localStorage.setItem('reader.syncIntervalMs', '3600000'));
	log(`interact ${account} ${phone ? 'phone' : 'desktop'} ${cpu}×: first sync done`);
	await page.goto(`${origin}${phone ? '/' : '/feed/-4'}`);
	const catLink = page.locator(`nav[aria-label="Feeds"] a[href$="/cat/${cat.id}"]`);
	await catLink.waitFor({ timeout: 60_000 });
	await page.waitForLoadState('networkidle');
	const cdp = await context.newCDPSession(page);
	await cdp.send('Performance.enable');
	await throttle(page, cdp, cpu);
	void synced;
	const traceDir = process.env.BENCH_TRACE_SESSION;
	if (traceDir) {
		mkdirSync(traceDir, { recursive: true });
		await browser.startTracing(page, {
			path: `${traceDir}/interact-${account}-${phone ? 'phone' : 'desktop'}-${cpu}x.json`,
			categories: [
				'toplevel',
				'devtools.timeline',
				'disabled-by-default-devtools.timeline',
				'v8.execute',
				'disabled-by-default-v8.cpu_profiler',
				// BENCH_TRACE_CATEGORIES=a,b: more (viz, gpu, benchmark, …) to follow a frame to the screen.
				...(process.env.BENCH_TRACE_CATEGORIES?.split(',').filter(Boolean) ?? [])
			]
		});
	}

	/** @type {any[]} */
	const steps = [];
	try {
		return await script();
	} catch (e) {
		if (process.env.BENCH_DEBUG)
			await page.screenshot({
				path: `/tmp/interact-${account}-${phone ? 'phone' : 'desktop'}.png`
			});
		// The steps done so far are kept beside the error.
		if (steps.length === 0) throw e;
		log(`interact ${account}: stopped: ${e}`);
		return { ...summarizeSession(steps), error: String(e).slice(0, 300) };
	} finally {
		if (traceDir) await browser.stopTracing();
		await context.close();
	}

	async function script() {
		/**
		 * @param {string} name @param {() => Promise<any>} fn a reader's action and its visible outcome
		 * @param {number} [actions] interactions the step makes (counted where Event Timing leaves out
		 *   those under 16 ms)
		 */
		const step = async (name, fn, actions = 1) => {
			if (process.env.BENCH_DEBUG) log(`interact: ${name}`);
			const t0 = /** @type {number} */ (await page.evaluate(() => performance.now()));
			const m0 = await metrics(cdp);
			const { result, top } = await profiled(page, async () => {
				const r = await fn();
				await settled(page);
				return r;
			});
			const m1 = await metrics(cdp);
			const got = await page.evaluate((from) => {
				const rec = /** @type {any} */ (window).__ix;
				return {
					events: rec.events.filter((/** @type {any} */ e) => e.start >= from),
					longTasks: rec.longTasks.filter((/** @type {any} */ t) => t.start >= from),
					now: performance.now()
				};
			}, t0);
			/** @type {Map<number, any>} */
			const byId = new Map();
			for (const e of got.events) {
				if (!e.id) continue;
				const had = byId.get(e.id);
				if (!had || e.dur > had.dur) byId.set(e.id, e);
			}
			// A tap whose pointer events were timed but whose click never was: the frame with its
			// change was never presented. Headless Chromium draws nothing for a change only in the
			// phone's fixed bottom toolbar (Viz "Draw skipped"), so the click's entry waits for
			// the next frame with other damage: not a figure to take, and not "under 16 ms" either.
			const unpresented = [...new Set(got.events.map((/** @type {any} */ e) => e.id))].filter(
				(id) =>
					id &&
					got.events.some(
						(/** @type {any} */ e) => e.id === id && /^pointer(down|up)$/.test(e.name)
					) &&
					!got.events.some((/** @type {any} */ e) => e.id === id && e.name === 'click')
			).length;
			const last = steps.find((s) => s.name === name);
			const rec = {
				name,
				actions,
				unpresented,
				interactions: [...byId.values()].map((e) => ({
					ms: e.dur,
					event: e.name,
					wait: Math.round(e.wait),
					run: Math.round(e.run)
				})),
				longTasks: got.longTasks.map((/** @type {any} */ t) => Math.round(t.dur)),
				layoutMs: m1.layout - m0.layout,
				styleMs: m1.style - m0.style,
				wallMs: got.now - t0,
				...(result && typeof result === 'object' ? { detail: result } : {}),
				...(top.length ? { profile: top } : {})
			};
			if (last) {
				// Repeated steps (50 openings, a phone's backs between them) are one row.
				last.actions += rec.actions;
				last.unpresented += rec.unpresented;
				last.interactions.push(...rec.interactions);
				last.longTasks.push(...rec.longTasks);
				last.layoutMs += rec.layoutMs;
				last.styleMs += rec.styleMs;
				last.wallMs += rec.wallMs;
				if (rec.profile) last.profile = [...(last.profile ?? []), ...rec.profile];
			} else steps.push(rec);
		};

		const tapOrClick = async (/** @type {import('@playwright/test').Locator} */ l) =>
			phone ? l.tap() : l.click();
		const list = page.getByRole('list', { name: /^Headlines of/ });
		const rowLinks = list.locator(`${APP_HEADLINE} a.link`);
		/** The list's nth row (from 1; the virtual list builds the rows near the view only). */
		const rowLink = (/** @type {number} */ n) => list.locator(`[aria-posinset="${n}"] a.link`);
		const articleOpen = async (/** @type {string} */ before) => {
			await page.waitForURL((u) => u.href !== before, { timeout: 60_000 });
			// Attached, not visible: an article may have no text (the hostile corpus has one).
			await page
				.locator('.article-content')
				.first()
				.waitFor({ state: 'attached', timeout: 60_000 });
		};
		const back = page.getByRole('link', { name: 'Back' });

		await step('open a category', async () => {
			await tapOrClick(catLink);
			await rowLinks.first().waitFor({ timeout: 60_000 });
		});

		// 50 articles: taps on rows (a phone goes back to the list between them), then `j`.
		const taps = phone ? 10 : 25;
		for (let i = 0; i < taps; i++) {
			const before = page.url();
			await step('open an article (tap)', async () => {
				await tapOrClick(rowLink(i + 1));
				await articleOpen(before);
			});
			if (phone && i < taps - 1) {
				await step('back to the list', async () => {
					await back.tap();
					await rowLinks.first().waitFor();
				});
			}
		}
		for (let i = taps; i < 50; i++) {
			const before = page.url();
			await step('open an article (j)', async () => {
				await page.keyboard.press('j');
				await articleOpen(before);
			});
		}
		const toolbar = page.getByRole('toolbar', { name: 'Article actions' });
		await step('star', async () => {
			await tapOrClick(toolbar.getByRole('button', { name: 'Star' }));
			await toolbar.locator('button.star[aria-pressed="true"]').waitFor();
		});
		await step('mark unread', async () => {
			await tapOrClick(toolbar.getByRole('button', { name: 'Mark unread' }));
			await toolbar.getByRole('button', { name: 'Mark read' }).waitFor();
		});
		const labels = toolbar.locator('summary', { hasText: 'Labels' });
		await step(
			'labels: open, tick one, close',
			async () => {
				await tapOrClick(labels);
				// The last label: a phone's toolbar is at the bottom and its menu opens upwards; with the
				// big account's 50 labels the first ones are above the window (not reachable there).
				const box = toolbar.getByRole('checkbox').last();
				await box.waitFor({ timeout: 30_000 });
				await tapOrClick(box);
				await tapOrClick(labels);
			},
			3
		);
		await step('back to the list', async () => {
			if (phone) await back.tap();
			else await page.keyboard.press('Escape');
			await page.waitForURL((u) => /\/cat\/\d+$/.test(u.pathname));
			await rowLinks.first().waitFor();
		});

		await step(
			'scroll 1,000 rows',
			() =>
				page.evaluate(async () => {
					const viewport = document.querySelector(
						'[role="list"][aria-label^="Headlines of"]'
					)?.parentElement;
					const row = document.querySelector('.headline[data-article-id]');
					if (!(viewport instanceof HTMLElement) || !(row instanceof HTMLElement))
						throw new Error('no list');
					const rowH = row.getBoundingClientRect().height;
					const goal = rowH * 1000;
					/** @type {number[]} */ const frames = [];
					let last = performance.now();
					const t0 = last;
					let moved = last;
					await new Promise((resolve) => {
						const tick = (/** @type {number} */ now) => {
							frames.push(now - last);
							last = now;
							const before = viewport.scrollTop;
							viewport.scrollTop += rowH * 3;
							// The end of the list waits for its next page (up to 5 s without moving), then stops.
							if (viewport.scrollTop !== before) moved = now;
							if (viewport.scrollTop >= goal || now - moved > 5000 || now - t0 > 120_000)
								return resolve(undefined);
							requestAnimationFrame(tick);
						};
						requestAnimationFrame(tick);
					});
					const f = frames.slice(1).sort((a, b) => a - b);
					return {
						rows: Math.round(viewport.scrollTop / rowH),
						frameMedian: f[Math.floor(f.length / 2)] ?? 0,
						frameMax: f.at(-1) ?? 0
					};
				}),
			0
		);
		/** Scrolls the list (not measured) until its row `n` is built. @param {number} n */
		const reach = async (n, top = false) => {
			for (let k = 0; k < 100 && (top || (await rowLink(n).count()) === 0); k++) {
				await page.evaluate(([to, from]) => {
					const viewport = document.querySelector(
						'[role="list"][aria-label^="Headlines of"]'
					)?.parentElement;
					const row = document.querySelector('.headline[data-article-id]');
					if (!viewport || !row) return;
					const h = row.getBoundingClientRect().height;
					viewport.scrollTop = from ? (to - 1) * h : viewport.scrollTop + 2 * h;
				}, /** @type {[number, boolean]} */ ([n, top]));
				await settled(page);
				top = false;
			}
		};

		if (phone) {
			await step('open the tree (back)', async () => {
				await back.tap();
				await catLink.waitFor();
			});
			await step('open a category', async () => {
				await catLink.tap();
				await rowLinks.first().waitFor();
			});
		}

		// The rows to pick: unread ones (the 50 read above would make Mark read a no-op, no Undo).
		const PICK = 51;
		await reach(PICK, true);

		const bar = page.getByRole('group', { name: 'Selected articles' });
		const status = bar.getByRole('status');
		await step(
			'select 20 rows',
			async () => {
				const first = rowLink(PICK);
				if (phone) {
					const box = await first.boundingBox();
					if (!box) throw new Error('row not on screen');
					const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
					await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
					await bar.waitFor();
					await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
					// The click a long press's lift makes is swallowed for 400 ms (gestures/swipe-press.ts);
					// a reader's next tap comes later than the harness's would.
					await page.waitForTimeout(500);
				} else await first.click({ modifiers: ['Control'] });
				await status.filter({ hasText: '1 selected' }).waitFor();
				for (let i = 1; i < 20; i++) {
					await reach(PICK + i);
					const link = rowLink(PICK + i);
					if (phone) await link.tap();
					else await link.click({ modifiers: ['Control'] });
					await status.filter({ hasText: `${i + 1} selected` }).waitFor();
				}
			},
			20
		);
		await step('mark 20 read', async () => {
			await tapOrClick(bar.getByRole('button', { name: 'Mark read' }));
			await bar.waitFor({ state: 'hidden' });
		});
		const undo = page.getByRole('status', { name: 'Notifications' }).getByRole('button', {
			name: 'Undo'
		});
		await step('undo', async () => {
			await tapOrClick(undo);
			await undo.waitFor({ state: 'hidden' });
		});
		// Back at the list's top (not measured): a phone's header slides over the list's toolbar
		// while the list is scrolled.
		await reach(1, true);
		await page.evaluate(() => window.scrollTo(0, 0));
		await step(
			'switch view mode',
			async () => {
				await tapOrClick(page.locator('summary', { hasText: 'Show and order' }));
				const select = page.getByRole('combobox', { name: 'Show' });
				await select.focus();
				const before = await select.inputValue();
				await page.keyboard.press('ArrowDown');
				await page.waitForFunction(
					(b) =>
						/** @type {HTMLSelectElement | null} */ (
							document.querySelector('select[aria-label="Show"]')
						)?.value !== b,
					before
				);
				await page.waitForLoadState('networkidle');
			},
			3
		);
		return summarizeSession(steps);
	}
}

/** @param {any[]} steps */
function summarizeSession(steps) {
	const all = steps.flatMap((s) => s.interactions.map((/** @type {any} */ i) => i.ms));
	const count = Math.max(
		all.length,
		steps.reduce((n, s) => n + s.actions, 0)
	);
	const tasks = steps.flatMap((s) => s.longTasks);
	return {
		steps,
		interactions: count,
		measured: all.length,
		inp: inpOf(all, count),
		worst: Math.max(0, ...all),
		longTasks: tasks.length,
		longestTask: Math.max(0, ...tasks),
		layoutMs: steps.reduce((n, s) => n + s.layoutMs, 0),
		styleMs: steps.reduce((n, s) => n + s.styleMs, 0)
	};
}

/** Which sessions: BENCH_INTERACT=small:phone:4,... or all eight. */
function plan() {
	// The budget's case first (a run cut short still has it), then the rest.
	const all = [
		'big:phone:4',
		'big:phone:1',
		'small:phone:4',
		'small:phone:1',
		'big:desktop:4',
		'big:desktop:1',
		'small:desktop:4',
		'small:desktop:1'
	];
	return process.env.BENCH_INTERACT?.split(',') ?? all;
}

/**
 * @param {Browser} browser @param {string} origin
 * @param {{ log: (m: string) => void }} opts
 */
export async function interactionBench(browser, origin, { log }) {
	/** @type {Record<string, any>} */
	const out = {};
	const big = bigAvailable();
	for (const key of plan()) {
		const [account = 'small', w, cpu] = key.split(':');
		if (account === 'big' && !big) {
			out[key] = { skipped: 'no ttrss_big (bash bench/big-setup.sh)' };
			continue;
		}
		log(`interact: ${key}`);
		try {
			out[key] = await session(browser, origin, {
				account,
				phone: w === 'phone',
				cpu: Number(cpu),
				log
			});
		} catch (e) {
			log(`interact ${key} failed: ${e}`);
			out[key] = { error: String(e).slice(0, 300) };
		}
		// Each session as it ends (a run stopped half way keeps what it measured).
		mkdirSync(`${ROOT}bench-results`, { recursive: true });
		writeFileSync(
			`${ROOT}bench-results/interact-partial.json`,
			`${JSON.stringify(out, null, 2)}\n`
		);
	}
	execFileSync('bash', ['testbed/reset.sh', 'debian'], { cwd: ROOT, stdio: 'ignore' });
	return out;
}

/**
 * Where interactions' time goes, Event Timing's three phases (medians): the input's wait for the
 * main thread, the handlers' run, and the rest until the next paint (style, layout, paint and the
 * work queued before the frame).
 * @param {{ ms: number, wait: number, run: number }[]} xs
 */
function phases(xs) {
	const ms = (/** @type {number[]} */ v) => `${Math.round(median(v))}`;
	return `wait / run / paint ${ms(xs.map((i) => i.wait))} / ${ms(xs.map((i) => i.run))} / ${ms(xs.map((i) => i.ms - i.wait - i.run))} ms`;
}

/** @param {any} r results.interact @returns {string[][]} */
export function interactRows(r) {
	if (!r) return [];
	const ms = (/** @type {number} */ n) => (Number.isFinite(n) ? `${Math.round(n)} ms` : '—');
	/** @type {string[][]} */
	const rows = [];
	for (const [key, s] of Object.entries(r)) {
		const [account, w, cpu] = key.split(':');
		const name = `session ${account} ${w} ${cpu}×`;
		if (!s.steps) {
			rows.push([name, '', s.error ?? s.skipped ?? 'no figures', '', '']);
			continue;
		}
		const budget =
			cpu === '4' && account === 'big' && w === 'phone'
				? 'INP ≤ 100 ms, none > 200 ms'
				: cpu === '1'
					? 'no task > 50 ms'
					: '';
		rows.push([
			name,
			'',
			`${s.error ? `(stopped: ${s.error.slice(0, 60)}) ` : ''}INP ${ms(s.inp)}, worst ${ms(s.worst)} (${s.measured} of ${s.interactions} ≥ 16 ms); ${s.longTasks} long tasks, longest ${ms(s.longestTask)}; layout ${ms(s.layoutMs)}, style ${ms(s.styleMs)}`,
			'',
			budget
		]);
		const slow = s.steps.flatMap((/** @type {any} */ st) =>
			st.interactions.filter((/** @type {any} */ i) => i.ms > 100)
		);
		if (slow.length)
			rows.push([
				`   interactions over 100 ms (${slow.length})`,
				'',
				`median ${phases(slow)}`,
				'',
				''
			]);
		for (const st of s.steps) {
			const xs = st.interactions.map((/** @type {any} */ i) => i.ms);
			rows.push([
				`   ${st.name}${st.actions > 1 ? ` (${st.actions})` : ''}`,
				'',
				`${xs.length ? `median ${ms(median(xs))}, worst ${ms(Math.max(...xs))}` : st.unpresented ? 'not measured' : 'all < 16 ms'}${st.unpresented ? ` (${st.unpresented} tap${st.unpresented > 1 ? 's' : ''} whose frame the browser never presented)` : ''}; tasks ${st.longTasks.length ? `${st.longTasks.length}, longest ${ms(Math.max(...st.longTasks))}` : 0}; layout ${ms(st.layoutMs)}, style ${ms(st.styleMs)}${xs.length ? `; median ${phases(st.interactions)}` : ''}${st.detail?.rows !== undefined ? `; ${st.detail.rows} rows, frames ${st.detail.frameMedian.toFixed(1)} / ${st.detail.frameMax.toFixed(1)} ms` : ''}`,
				'',
				''
			]);
		}
	}
	return rows;
}
