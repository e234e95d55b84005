/// <reference lib="dom" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * Signing in to the test bed through the app's form, for every harness that drives a browser: the
 * Playwright specs (tests/e2e/reader-support.ts `signIn`, through tests/support/playwright-page.ts),
 * the engines suite (Firefox, WebKit) and the chaos harness: one routine, so all meet the form the
 * same way. The field and button are found and used through engines/support/ui.ts (`fill`,
 * `click`), which find and use them again when the form was drawn anew between the two (its
 * `onFound`).
 */
import type { EngineBrowser } from '../engines/support/engines';
import { button, click, fill, input, poll } from '../engines/support/ui';
import { testbed } from './testbed';

export interface SignInOptions {
	/** Sets "Stay signed in" to this; left as the form has it when absent. */
	staySignedIn?: boolean;
	/** How long the feed tree and the service worker may take once the form is sent (ms). */
	timeoutMs?: number;
	/**
	 * Waits for a service worker to control the page as well as for the tree (the default). The
	 * Playwright specs do not: some block service workers, and theirs wait for the worker where
	 * they need it.
	 */
	waitForWorker?: boolean;
	/** Another account of the test bed (its second user); the test bed's user when absent. */
	account?: { user: string; password: string };
}

/**
 * Opens `loginUrl`, signs in as the test bed's user and waits until the page shows the feed tree
 * and a service worker controls it. On a time-out, the error says which of the two never came and
 * where the worker's registration and the form stand.
 */
export async function signInWithForm(
	browser: EngineBrowser,
	loginUrl: string,
	{
		staySignedIn,
		timeoutMs = 30_000,
		waitForWorker = true,
		account = { user: testbed.user, password: testbed.password }
	}: SignInOptions = {}
): Promise<void> {
	await browser.goto(loginUrl);
	await fill(browser, input('User name'), account.user);
	await fill(browser, input('Password'), account.password);
	if (staySignedIn !== undefined) {
		const checked = await browser.evaluate(
			() => document.querySelector<HTMLInputElement>('input[name="stay-signed-in"]')?.checked
		);
		if (checked !== staySignedIn) await click(browser, input('Stay signed in'));
	}
	await click(browser, button('Sign in'));
	try {
		await poll(
			waitForWorker ? 'the feed tree and a service worker controlling the page' : 'the feed tree',
			() =>
				browser.evaluate(
					(worker: boolean) =>
						document.querySelector('nav[aria-label="Feeds"] a') !== null &&
						(!worker || navigator.serviceWorker.controller !== null),
					waitForWorker
				),
			browser,
			timeoutMs
		);
	} catch (error) {
		const state = await browser.evaluate(signInStateInPage).catch(String);
		throw new Error(`${String(error)}; sign-in: ${state}`, { cause: error });
	}
}

/** Which half never came, and where the worker's registration and the form stand. */
async function signInStateInPage(): Promise<string> {
	const registration = await navigator.serviceWorker.getRegistration();
	return JSON.stringify({
		update: document.body.innerText.includes('New version'),
		tree: document.querySelector('nav[aria-label="Feeds"] a') !== null,
		controller: navigator.serviceWorker.controller?.state ?? null,
		installing: registration?.installing?.state ?? null,
		waiting: registration?.waiting?.state ?? null,
		active: registration?.active?.state ?? null,
		busy: document
			.querySelector('form button[type="submit"], form button')
			?.outerHTML.slice(0, 200),
		dialog: document.querySelector('dialog[open]')?.textContent?.trim().slice(0, 200) ?? null,
		user:
			document.querySelector<HTMLInputElement>('input[autocomplete="username"], input[name="user"]')
				?.value ?? null,
		password:
			(document.querySelector<HTMLInputElement>('input[type="password"]')?.value.length ?? -1) > 0,
		alert: document.querySelector('[role="alert"]')?.textContent?.trim() ?? null
	});
}
