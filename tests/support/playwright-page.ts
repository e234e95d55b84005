/**
 * A Playwright page behind the engines' driver interface (`EngineBrowser`,
 * tests/engines/support/engines.ts), so that the routines shared by every harness (the sign-in of
 * tests/support/sign-in.ts) drive Chromium through Playwright as they drive Firefox and WebKit:
 * the Playwright specs (tests/e2e), the chaos harness (tests/chaos) and the engines suite meet the
 * app's form through one routine.
 */
import type { Page } from '@playwright/test';
import type { EngineBrowser } from '../engines/support/engines';

export class PlaywrightPage implements EngineBrowser {
	readonly name = 'chromium' as const;
	readonly log: string[] = [];
	constructor(readonly page: Page) {
		page.on('pageerror', (error) => this.log.push(`pageerror: ${String(error)}`));
	}
	async goto(url: string): Promise<void> {
		await this.page.goto(url);
	}
	async reload(): Promise<void> {
		await this.page.reload();
	}
	evaluate<R, A extends unknown[]>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R> {
		return this.evaluateSource<R>(fn.toString(), ...args);
	}
	evaluateSource<R>(fnSource: string, ...args: unknown[]): Promise<R> {
		return this.page.evaluate<R>(`(${fnSource}).apply(null, ${JSON.stringify(args)})`);
	}
	/**
	 * Clicks the element the shared finder marked (engines/support/ui.ts), as it is now. One drawn
	 * anew meanwhile (a sync redraws the tree) fails at once as gone, so the finder finds the new
	 * one (`onFound`); a locator's click would wait its whole time for the old one to come back.
	 */
	async click(css: string): Promise<void> {
		const handle = await this.page
			.locator(css)
			.first()
			.elementHandle({ timeout: 1_000 })
			.catch((error: unknown) => {
				throw new Error(`no such element: ${css} (drawn anew)`, { cause: error });
			});
		try {
			await handle.click({ timeout: 8_000 });
		} finally {
			await handle.dispose().catch(() => undefined);
		}
	}
	async fill(css: string, text: string): Promise<void> {
		await this.page.locator(css).first().fill(text);
	}
	async press(key: string): Promise<void> {
		await this.page.keyboard.press(key);
	}
	async setViewport(width: number, height: number): Promise<void> {
		await this.page.setViewportSize({ width, height });
	}
	async close(): Promise<void> {
		await this.page.close();
	}
}

const adapters = new WeakMap<Page, PlaywrightPage>();

/** The page's adapter: one per page, so its error log is kept once. */
export function playwrightPage(page: Page): PlaywrightPage {
	let adapter = adapters.get(page);
	if (!adapter) {
		adapter = new PlaywrightPage(page);
		adapters.set(page, adapter);
	}
	return adapter;
}
