/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * The two engines Playwright cannot drive here, behind one small interface: Debian's Firefox ESR over
 * WebDriver BiDi (puppeteer-core) and WebKitGTK's MiniBrowser through WebKitWebDriver (a W3C
 * WebDriver client, selenium-webdriver) under a virtual X server. Both use the builds Debian ships;
 * nothing is downloaded. Scripts run in the page are plain functions, serialised with toString(): they
 * must not use anything from the test's module scope.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, {
	type Browser as PuppeteerBrowser,
	type Page,
	type KeyInput
} from 'puppeteer-core';
import { Builder, By, Key, type WebDriver } from 'selenium-webdriver';
import { freePort } from '../../support/free-port';
import type { EgressGuard } from './app-server';

export type EngineName = 'firefox' | 'webkit';
export const ENGINES: EngineName[] = ['firefox', 'webkit'];

const FIREFOX = '/usr/bin/firefox-esr';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** A key as puppeteer names it: a character, or 'Escape', 'Enter', 'Tab', 'ArrowDown', 'ArrowUp'. */
export type KeyName = string;

export interface EngineBrowser {
	/** Chromium only through Playwright (tests/support/playwright-page.ts). */
	readonly name: EngineName | 'chromium';
	goto(url: string): Promise<void>;
	reload(): Promise<void>;
	/** Runs `fn` in the page with JSON-able `args`; awaits a returned promise. */
	evaluate<R, A extends unknown[]>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>;
	/**
	 * The same with the function given as source text, for code composed in the test (WebKit holds
	 * `new Function` in the page to the page's CSP, so a page function cannot build one itself).
	 */
	evaluateSource<R>(fnSource: string, ...args: unknown[]): Promise<R>;
	/** A real pointer click on the first element matching `css`. */
	click(css: string): Promise<void>;
	/** Replaces the value of the input matching `css` by typing `text` into it. */
	fill(css: string, text: string): Promise<void>;
	/** One key press, sent to whatever has focus. */
	press(key: KeyName): Promise<void>;
	/** The size of the page's viewport (CSS pixels), as near as the engine allows. */
	setViewport(width: number, height: number): Promise<void>;
	/** Console messages and page errors seen so far (for failure messages). */
	readonly log: string[];
	close(): Promise<void>;
}

/** The source of a page function (a function's own text, never anything from its closure). */
function source(fn: (...args: never[]) => unknown): string {
	return fn.toString();
}

class FirefoxBrowser implements EngineBrowser {
	readonly name = 'firefox' as const;
	readonly log: string[] = [];
	constructor(
		private readonly browser: PuppeteerBrowser,
		private readonly page: Page
	) {
		page.on('console', (message) => this.log.push(`console.${message.type()}: ${message.text()}`));
		page.on('pageerror', (error) => this.log.push(`pageerror: ${String(error)}`));
	}

	async goto(url: string): Promise<void> {
		await this.page.goto(url, { waitUntil: 'load' });
	}
	async reload(): Promise<void> {
		await this.page.reload({ waitUntil: 'load' });
	}
	evaluate<R, A extends unknown[]>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R> {
		return this.evaluateSource<R>(source(fn), ...args);
	}
	evaluateSource<R>(fnSource: string, ...args: unknown[]): Promise<R> {
		// As an expression, like WebKit's below: both engines run exactly the same source.
		return this.page.evaluate(`(${fnSource}).apply(null, ${JSON.stringify(args)})`) as Promise<R>;
	}
	async click(css: string): Promise<void> {
		await this.page.click(css);
	}
	async fill(css: string, text: string): Promise<void> {
		await this.page.$eval(css, (element) => {
			(element as HTMLInputElement).select();
		});
		await this.page.keyboard.press('Backspace');
		await this.page.type(css, text);
	}
	async press(key: KeyName): Promise<void> {
		await this.page.keyboard.press(key as KeyInput);
	}
	async setViewport(width: number, height: number): Promise<void> {
		await this.page.setViewport({ width, height });
	}
	async close(): Promise<void> {
		await this.browser.close();
	}
}

const SELENIUM_KEYS: Record<string, string> = {
	Escape: Key.ESCAPE,
	Enter: Key.ENTER,
	Tab: Key.TAB,
	ArrowDown: Key.ARROW_DOWN,
	ArrowUp: Key.ARROW_UP
};

class WebKitBrowser implements EngineBrowser {
	readonly name = 'webkit' as const;
	readonly log: string[] = [];
	constructor(
		private readonly driver: WebDriver,
		private readonly service: ChildProcess
	) {
		const collect = (chunk: Buffer) => {
			for (const line of chunk.toString('utf8').split('\n')) if (line) this.log.push(line);
			if (this.log.length > 500) this.log.splice(0, this.log.length - 500);
		};
		service.stdout?.on('data', collect);
		service.stderr?.on('data', collect);
	}

	async goto(url: string): Promise<void> {
		await this.driver.get(url);
	}
	async reload(): Promise<void> {
		await this.driver.navigate().refresh();
	}
	evaluate<R, A extends unknown[]>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R> {
		return this.evaluateSource<R>(source(fn), ...args);
	}
	evaluateSource<R>(fnSource: string, ...args: unknown[]): Promise<R> {
		// W3C "execute script" awaits a returned promise.
		return this.driver.executeScript<R>(`return (${fnSource}).apply(null, arguments)`, ...args);
	}
	async click(css: string): Promise<void> {
		await this.driver.findElement(By.css(css)).click();
	}
	async fill(css: string, text: string): Promise<void> {
		const element = await this.driver.findElement(By.css(css));
		await element.clear();
		await element.sendKeys(text);
	}
	async press(key: KeyName): Promise<void> {
		await this.driver
			.actions()
			.sendKeys(SELENIUM_KEYS[key] ?? key)
			.perform();
	}
	async setViewport(width: number, height: number): Promise<void> {
		// WebDriver sizes the window; the difference is MiniBrowser's own toolbar, added back here.
		const inner = await this.evaluate(() => [
			window.outerWidth - window.innerWidth,
			window.outerHeight - window.innerHeight
		]);
		await this.driver
			.manage()
			.window()
			.setRect({ width: width + (inner[0] ?? 0), height: height + (inner[1] ?? 0) });
	}
	async close(): Promise<void> {
		try {
			await this.driver.quit();
		} finally {
			stopGroup(this.service);
		}
	}
}

/** Ends a process started with `detached: true` and everything it started (Xvfb, MiniBrowser). */
function stopGroup(child: ChildProcess): void {
	if (child.pid === undefined || child.exitCode !== null) return;
	try {
		process.kill(-child.pid, 'SIGTERM');
	} catch {
		// Already gone.
	}
}

async function launchFirefox(guard: EgressGuard, profileDir?: string): Promise<EngineBrowser> {
	const [host, port] = guard.proxy.split(':');
	const browser = await puppeteer.launch({
		browser: 'firefox',
		executablePath: FIREFOX,
		headless: true,
		...(profileDir ? { userDataDir: profileDir } : {}),
		extraPrefsFirefox: {
			'network.proxy.type': 1,
			'network.proxy.http': host,
			'network.proxy.http_port': Number(port),
			'network.proxy.ssl': host,
			'network.proxy.ssl_port': Number(port),
			'network.proxy.no_proxies_on': guard.direct.join(','),
			'network.proxy.allow_hijacking_localhost': false,
			// Firefox's own background services (remote settings, telemetry): nothing to fetch.
			'services.settings.server': 'data:,',
			'datareporting.policy.dataSubmissionEnabled': false,
			'toolkit.telemetry.enabled': false,
			'browser.safebrowsing.update.enabled': false,
			'extensions.update.enabled': false
		}
	});
	const page = (await browser.pages())[0] ?? (await browser.newPage());
	return new FirefoxBrowser(browser, page);
}

/** Resolves when WebKitWebDriver answers on `port`, or rejects when it exits first. */
async function driverReady(port: number, service: ChildProcess): Promise<void> {
	const exited = new Promise<never>((_, reject) => {
		service.once('exit', (code) =>
			reject(new Error(`WebKitWebDriver exited with ${String(code)}`))
		);
	});
	const deadline = Date.now() + 30_000;
	const poll = async (): Promise<void> => {
		while (Date.now() < deadline) {
			try {
				const reply = await fetch(`http://127.0.0.1:${port}/status`);
				if (reply.ok) return;
			} catch {
				// Not listening yet.
			}
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		throw new Error('WebKitWebDriver did not start within 30 s');
	};
	await Promise.race([poll(), exited]);
}

async function launchWebKit(guard: EgressGuard): Promise<EngineBrowser> {
	const port = await freePort();
	const service = spawn(
		'xvfb-run',
		['-a', '-s', '-screen 0 1280x1024x24', 'WebKitWebDriver', `--port=${port}`],
		{ detached: true, stdio: ['ignore', 'pipe', 'pipe'] }
	);
	try {
		await driverReady(port, service);
		const driver = await new Builder()
			.usingServer(`http://127.0.0.1:${port}`)
			.withCapabilities({
				browserName: 'MiniBrowser',
				'webkitgtk:browserOptions': {
					binary: MINIBROWSER,
					args: [
						'--automation',
						'--enable-write-console-messages-to-stdout=true',
						`--proxy=http://${guard.proxy}`,
						// One option per host (MiniBrowser takes a list, not a comma-separated string).
						...guard.direct.map((host) => `--ignore-host=${host}`)
					]
				}
			})
			.build();
		await driver.manage().setTimeouts({ script: 30_000, pageLoad: 30_000 });
		return new WebKitBrowser(driver, service);
	} catch (error) {
		stopGroup(service);
		throw error;
	}
}

/**
 * A fresh browser (empty profile) of the engine, its traffic held to this machine by `guard`. With
 * `profileDir` Firefox keeps its profile there, to be opened again (the chaos harness's restart);
 * WebKit's automation sessions keep nothing.
 */
export async function launch(
	name: EngineName,
	guard: EgressGuard,
	options: { profileDir?: string } = {}
): Promise<EngineBrowser> {
	return name === 'firefox' ? launchFirefox(guard, options.profileDir) : launchWebKit(guard);
}

/** A private directory for one run's files, removed by the returned function. */
export function tempDir(prefix: string): { path: string; remove: () => void } {
	const path = mkdtempSync(join(tmpdir(), prefix));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
