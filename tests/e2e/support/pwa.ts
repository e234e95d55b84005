/** Service worker helpers for the PWA tests. */
import type { Page } from '@playwright/test';

/**
 * How long a new version's worker may take to install before the page says "New version
 * available": the install precaches the whole app (~200 files), which took over 10 s (the default
 * wait) on a loaded machine (plugin-install.spec.ts, a loaded pass of issue 22's ten).
 */
export const INSTALL_MS = 30_000;

/** Waits until a service worker controls the page (the first install claims it). */
export async function waitForController(page: Page): Promise<void> {
	await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** The build version of the worker that controls the page (asked over a MessageChannel). */
export async function controllerVersion(page: Page): Promise<string> {
	return page.evaluate(
		() =>
			new Promise<string>((resolve, reject) => {
				const controller = navigator.serviceWorker.controller;
				if (!controller) {
					reject(new Error('no controller'));
					return;
				}
				const channel = new MessageChannel();
				channel.port1.onmessage = (event: MessageEvent<{ version: string }>) =>
					resolve(event.data.version);
				controller.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
			})
	);
}

/** Cuts the browser off the network: offline mode plus aborting every request that still goes out. */
export async function goOffline(page: Page): Promise<void> {
	const context = page.context();
	await context.setOffline(true);
	await context.route('**/*', (route) => route.abort('internetdisconnected'));
}
