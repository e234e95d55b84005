/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * The update prompt in Firefox and WebKit: a new build deployed while the app is open installs in
 * the background, waits, the page offers "Reload", and only then does the new version take over.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { buildApp, repoRoot } from '../e2e/support/build';
import { ENGINES } from './support/engines';
import { signIn, useEngine } from './support/session';
import { button, click, poll, waitFor } from './support/ui';

const NEXT_VERSION = 'engines-next';
let nextBuild = '';

beforeAll(() => {
	nextBuild = buildApp({
		outDir: `${repoRoot}node_modules/.cache/engines/build-next`,
		version: NEXT_VERSION
	});
});

/** The build version of the worker that controls the page (its GET_VERSION message). */
function controllerVersion(): Promise<string> {
	return new Promise((resolve) => {
		const controller = navigator.serviceWorker.controller;
		if (!controller) {
			resolve('');
			return;
		}
		const channel = new MessageChannel();
		channel.port1.onmessage = (event: MessageEvent<{ version: string }>) =>
			resolve(event.data.version);
		controller.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
	});
}

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('a new version waits for the reader, then takes over on Reload', async () => {
		const { browser, server } = session;
		await signIn(session);
		const first = await browser.evaluate(controllerVersion);
		expect(first).not.toBe(NEXT_VERSION);

		server.root = nextBuild;
		// What the app does on its own hourly or when the tab becomes visible again.
		await browser.evaluate(async () => {
			await (await navigator.serviceWorker.getRegistration())?.update();
		});
		await click(browser, button('Reload'));
		await poll(
			'the new version in control',
			async () => (await browser.evaluate(controllerVersion)) === NEXT_VERSION,
			browser,
			30_000
		);
		await waitFor(
			browser,
			'the app after the reload',
			() => document.querySelector('nav[aria-label="Feeds"] a') !== null
		);
	});
});
