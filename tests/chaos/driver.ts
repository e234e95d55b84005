/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * The chaos harness's browsers behind one interface (the engines suite's `EngineBrowser`,
 * tests/engines/support/engines.ts): Chromium through Playwright (CDP stops the service worker),
 * Firefox ESR through puppeteer-core over WebDriver BiDi, and WebKitGTK's MiniBrowser through
 * WebKitWebDriver. Where an engine has no switch to stop the service worker, the browser is closed
 * and opened again on the same profile (which stops everything, the worker too).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { chromiumLaunch } from '../../chromium.config.js';
import { cutNetwork, restoreNetwork } from '../e2e/offline-support';
import { startEgressGuard, type EgressGuard } from '../engines/support/app-server';
import { launch, type EngineBrowser, type EngineName } from '../engines/support/engines';
import { playwrightPage } from '../support/playwright-page';

export type ChaosEngine = 'chromium' | EngineName;
export const CHAOS_ENGINES: readonly ChaosEngine[] = ['chromium', 'firefox', 'webkit'];

/** One schedule's browser: a fresh profile, kept across a restart. */
export interface ChaosBrowser {
	/** The page now (a restart makes a new one). */
	readonly page: EngineBrowser;
	/**
	 * The service worker stopped: CDP in Chromium; in Firefox the browser closed and opened again
	 * on its profile. WebKit's automation sessions keep no profile: a restart would lose the queue
	 * (not a fault a reader's device has), so there it is skipped. Returns the step's note.
	 */
	stopWorker(): Promise<string>;
	/**
	 * Offline as far as the page knows (Chromium: `navigator.onLine` false and the API cut). Other
	 * engines have no switch: the harness's proxy refuses everything, as a dead network would.
	 */
	setOffline(on: boolean): Promise<void>;
	/**
	 * The tab closed (in the middle of whatever it was writing) and the app opened again in a new
	 * one at the same address: Chromium; Firefox closes and opens the whole browser on its profile;
	 * WebKit keeps no profile across sessions, so there it is skipped. Returns the step's note.
	 */
	reopenTab(): Promise<string>;
	/**
	 * A second tab of the app beside the first, at `url` (Chromium only: the other engines' drivers
	 * drive one window; undefined there). The caller closes it.
	 */
	secondTab(url: string): Promise<EngineBrowser | undefined>;
	/**
	 * The whole browser killed (SIGKILL, no chance to finish a write) and started again on its
	 * profile at the same address: Chromium. Firefox's driver has no handle on its process: it is
	 * closed and opened again instead (the note says so); WebKit keeps no profile: skipped.
	 */
	killBrowser(): Promise<string>;
	/**
	 * The device's storage full (`on`) or room again. Chromium: the origin's quota is CHAOS_QUOTA
	 * from the start (CDP `Storage.overrideQuotaForOrigin`, set before the origin's first use: a
	 * later change is not seen by an IndexedDB already open); full is another database of the
	 * origin (`chaos-filler`) written with random bytes until not even 512 more fit, so every
	 * write that needs room fails with QuotaExceededError, in the page and the service worker
	 * alike; room again is that database deleted. The other engines' quotas are a share of the
	 * disk and cannot be set: skipped. Returns the step's note.
	 */
	fillStorage(on: boolean): Promise<string>;
	close(): Promise<void>;
}

/** Starts an engine; `open` makes one schedule's browser on a fresh profile at `url`. */
export interface ChaosLauncher {
	open(url: string): Promise<ChaosBrowser>;
	close(): Promise<void>;
}

/**
 * Chromium: each schedule a browser of its own on a fresh profile directory (a persistent
 * context), so that killing the whole browser (SIGKILL to its main process, as a phone's system
 * does to an app) and starting it again on the same profile keeps what it had written to disk.
 */
function chromiumLauncher(): Promise<ChaosLauncher> {
	return Promise.resolve({
		async open(url) {
			const profile = mkdtempSync(join(tmpdir(), 'chaos-chromium-'));
			let offline = false;
			const launchOn = async (): Promise<BrowserContext> => {
				const launched = await chromium.launchPersistentContext(profile, {
					executablePath: chromiumLaunch.executablePath,
					args: [...chromiumLaunch.args],
					baseURL: url,
					serviceWorkers: 'allow'
				});
				if (offline) await cutNetwork(launched);
				return launched;
			};
			let context = await launchOn();
			const tab = async (at: string, reuse?: Page): Promise<{ page: Page; cdp: CDPSession }> => {
				const opened = reuse ?? (await context.newPage());
				const session: CDPSession = await context.newCDPSession(opened);
				await session.send('ServiceWorker.enable');
				await session.send('Storage.overrideQuotaForOrigin', {
					origin: new URL(url).origin,
					quotaSize: CHAOS_QUOTA
				});
				await opened.goto(at);
				return { page: opened, cdp: session };
			};
			// A persistent context opens with one blank page: the schedule's tab.
			let { page, cdp } = await tab(url, context.pages()[0]);
			let driven = playwrightPage(page);
			return {
				get page() {
					return driven;
				},
				async stopWorker() {
					await cdp.send('ServiceWorker.stopAllWorkers');
					return 'stopped';
				},
				async reopenTab() {
					const at = page.url();
					await page.close();
					({ page, cdp } = await tab(at));
					driven = playwrightPage(page);
					return 'tab closed and opened again';
				},
				async killBrowser() {
					const at = page.url();
					const pid = browserPid(profile);
					if (pid === undefined) return 'skipped: the browser process was not found';
					const closed = new Promise((resolve) => context.once('close', resolve));
					process.kill(pid, 'SIGKILL');
					await closed;
					context = await launchOn();
					({ page, cdp } = await tab(at, context.pages()[0]));
					driven = playwrightPage(page);
					return 'browser killed and started again';
				},
				async secondTab(at) {
					return playwrightPage((await tab(at)).page);
				},
				async fillStorage(on) {
					if (!on) {
						await page.evaluate(emptyStorageInPage);
						return 'room again';
					}
					const { usage } = await cdp.send('Storage.getUsageAndQuota', {
						origin: new URL(url).origin
					});
					const filled = await page.evaluate(fillStorageInPage);
					return `storage full (${Math.round(usage / 1024 / 1024)} MB used by the app, ${Math.round(filled / 1024 / 1024)} MB filled)`;
				},
				async setOffline(on) {
					offline = on;
					if (on) await cutNetwork(context);
					else await restoreNetwork(context);
				},
				async close() {
					try {
						await context.close();
					} finally {
						rmSync(profile, { recursive: true, force: true });
					}
				}
			};
		},
		close: () => Promise.resolve()
	});
}

/**
 * The origin's storage quota in Chromium (bytes): far above what a schedule stores (about 20 MB),
 * small enough to fill in a second or two (fillStorage).
 */
const CHAOS_QUOTA = 80 * 1024 * 1024;

/** The main process of the Chromium whose profile is `profile` (its children carry a --type). */
function browserPid(profile: string): number | undefined {
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let args: string[];
		try {
			args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
		} catch {
			continue; // gone meanwhile
		}
		if (args.includes(`--user-data-dir=${profile}`) && !args.some((a) => a.startsWith('--type=')))
			return Number(entry);
	}
	return undefined;
}

/** Firefox and WebKit: each schedule a new profile directory (Firefox keeps it across a restart). */
async function engineLauncher(name: EngineName): Promise<ChaosLauncher> {
	const guard: EgressGuard = await startEgressGuard();
	return {
		async open(url) {
			const profile = mkdtempSync(join(tmpdir(), `chaos-${name}-`));
			const start = async (at: string): Promise<EngineBrowser> => {
				const opened = await launch(name, guard, { profileDir: profile });
				// Both panes, as in Chromium (Playwright's 1280×720): a narrow window is the phone's
				// one pane at a time, where the feed list hides behind the open list.
				await opened.setViewport(1280, 720);
				await opened.goto(at);
				return opened;
			};
			let page = await start(url);
			const restart = async (): Promise<void> => {
				const at = await page.evaluate(() => location.href);
				await page.close();
				page = await start(at);
			};
			return {
				get page() {
					return page;
				},
				async stopWorker() {
					if (name === 'webkit') return 'skipped: no switch, and a restart keeps no profile';
					await restart();
					return 'restarted';
				},
				async reopenTab() {
					if (name === 'webkit') return 'skipped: a restart keeps no profile';
					await restart();
					return 'browser closed and opened again';
				},
				secondTab: () => Promise.resolve(undefined),
				fillStorage: () => Promise.resolve('skipped: no quota switch in this engine'),
				async killBrowser() {
					if (name === 'webkit') return 'skipped: a restart keeps no profile';
					await restart();
					return 'skipped: no process handle; the browser closed and opened again instead';
				},
				async setOffline() {
					// The proxy refuses everything (ChaosServer.offline); nothing else to switch.
				},
				async close() {
					try {
						await page.close();
					} finally {
						rmSync(profile, { recursive: true, force: true });
					}
				}
			};
		},
		close: () => guard.close()
	};
}

export function startEngine(name: ChaosEngine): Promise<ChaosLauncher> {
	return name === 'chromium' ? chromiumLauncher() : engineLauncher(name);
}

// ------------------------------------------------------------------ page functions

/**
 * Writes random bytes (incompressible) into the `chaos-filler` database, 4 MB at a time and then
 * smaller pieces, until not even 512 bytes more fit in the origin's quota; resolves to the bytes
 * written.
 */
export function fillStorageInPage(): Promise<number> {
	return new Promise((resolve, reject) => {
		const open = indexedDB.open('chaos-filler', 1);
		open.onupgradeneeded = () => open.result.createObjectStore('filler');
		open.onerror = () => reject(open.error ?? new Error('open failed'));
		open.onsuccess = () => {
			const db = open.result;
			let written = 0;
			let key = 0;
			const put = (size: number): void => {
				const bytes = new Uint8Array(size);
				for (let i = 0; i < size; i += 65_536)
					crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65_536)));
				const tx = db.transaction('filler', 'readwrite');
				tx.objectStore('filler').put(bytes, key++);
				tx.oncomplete = () => {
					written += size;
					put(size);
				};
				tx.onabort = () => {
					if (size > 512) put(Math.floor(size / 4));
					else {
						db.close();
						resolve(written);
					}
				};
			};
			put(4 * 1024 * 1024);
		};
	});
}

/** Deletes the `chaos-filler` database: the origin has room again. */
export function emptyStorageInPage(): Promise<void> {
	return new Promise((resolve, reject) => {
		const request = indexedDB.deleteDatabase('chaos-filler');
		request.onsuccess = () => resolve();
		request.onerror = () => reject(request.error ?? new Error('delete failed'));
	});
}

/** Reads one store of the app's database (every record, or the one at `key`). */
export function readStoreInPage(name: string, key?: string): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const open = indexedDB.open('ttrss-reader');
		open.onerror = () => reject(open.error ?? new Error('open failed'));
		open.onsuccess = () => {
			const db = open.result;
			const store = db.transaction(name).objectStore(name);
			const request = key === undefined ? store.getAll() : store.get(key);
			request.onsuccess = () => {
				db.close();
				resolve(request.result);
			};
			request.onerror = () => reject(request.error ?? new Error('read failed'));
		};
	});
}

export interface ShownRow {
	id: number;
	unread: boolean;
	marked: boolean;
	/** What the row says (its feed, title, "Also in …" seen or spoken): the copies it names. */
	text: string;
}

/** The headline rows on screen, in order, with their shown unread and starred state. */
export function shownRowsInPage(): ShownRow[] {
	return [...document.querySelectorAll('[aria-label^="Headlines of"] [data-article-id]')].map(
		(el) => ({
			id: Number(el.getAttribute('data-article-id')),
			unread: el.classList.contains('unread'),
			marked:
				el.querySelector('button[aria-label^="Star “"]')?.getAttribute('aria-pressed') === 'true',
			text: el.textContent ?? ''
		})
	);
}

/**
 * The ids of the rows whose selection box is ticked: what the selection bar's action applies to.
 * The list may redraw between finding a box and the pointer's click, so a click can tick another
 * row than the one aimed at (WebKit seed 12043: rows 17, 13, 16 aimed at, 13, 16, 18 ticked).
 */
export function selectedRowsInPage(): number[] {
	return [...document.querySelectorAll('[aria-label^="Headlines of"] [data-article-id]')]
		.filter((el) => el.querySelector<HTMLInputElement>('input[aria-label^="Select “"]')?.checked)
		.map((el) => Number(el.getAttribute('data-article-id')));
}

/** The open article's id (its row is the current one and the article's toolbar shows). */
export function openArticleInPage(): number | null {
	const toolbar = document.querySelector('[role="toolbar"][aria-label="Article actions"]');
	if (!toolbar || toolbar.getClientRects().length === 0) return null;
	const current = document.querySelectorAll(
		'[aria-label^="Headlines of"] [data-article-id].current'
	);
	return current.length === 1 ? Number(current[0]?.getAttribute('data-article-id')) : null;
}

/**
 * The article toolbar's button whose name matches `source` (a pattern): its aria-pressed, or null
 * when it is not there. Its name is its aria-label (the toolbar's buttons are icons), else its
 * text.
 */
export function toolbarPressedInPage(source: string): boolean | null {
	const pattern = new RegExp(source);
	const button = [
		...document.querySelectorAll('[role="toolbar"][aria-label="Article actions"] button')
	].find((b) => pattern.test((b.getAttribute('aria-label') ?? b.textContent ?? '').trim()));
	return button ? button.getAttribute('aria-pressed') === 'true' : null;
}

/**
 * Whether every row of the list on one side of article `id` is drawn (the list is virtual: only
 * rows near the view are in the page). Mark above/below covers the rows the list has loaded, drawn
 * or not; the harness can only name the drawn ones.
 */
export function sideDrawnInPage(id: number, above: boolean): boolean {
	const items = [...document.querySelectorAll('[aria-label^="Headlines of"] [role="listitem"]')];
	const at = items.find((el) => el.querySelector(`[data-article-id="${id}"]`));
	if (!at) return false;
	const position = Number(at.getAttribute('aria-posinset'));
	const size = Number(at.getAttribute('aria-setsize'));
	const drawn = new Set(items.map((el) => Number(el.getAttribute('aria-posinset'))));
	const wanted = above
		? Array.from({ length: position - 1 }, (_, i) => i + 1)
		: Array.from({ length: size - position }, (_, i) => position + i + 1);
	return wanted.every((p) => drawn.has(p));
}

/** One local storage item of the page (null when absent or storage is refused). */
export function localItemInPage(key: string): string | null {
	try {
		return localStorage.getItem(key);
	} catch {
		return null;
	}
}

/** The text of the error toasts showing now. */
export function errorToastsInPage(): string[] {
	return [...document.querySelectorAll('[role="alert"] .toast.error span')].map(
		(s) => s.textContent ?? ''
	);
}
