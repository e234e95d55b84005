/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * The enclosure player in Firefox and WebKit: a position set in the podcast's WAV enclosure is back
 * after a reload (IndexedDB `media` store, docs/reading.md). Also records what each engine offers
 * the player and read aloud (Media Session, speech voices) for docs/engines.md.
 *
 * WebKitGTK (GStreamer) cannot seek at all in a file whose host ignores Range requests, as the test
 * bed's feed host does (Python's http.server), so the resume test runs in Firefox only; podcast
 * hosts answer ranges. Chromium has the same limit: tests/e2e/reader-media.spec.ts serves the file
 * with ranges itself, which this harness cannot.
 */
import { describe, test } from 'vitest';
import { ENGINES } from './support/engines';
import { openFeed, signIn, useEngine } from './support/session';
import { click, headline, waitFor } from './support/ui';

const PLAYER = 'audio[aria-label="tone.wav"]';

function audioReady(css: string): boolean {
	const audio = document.querySelector<HTMLAudioElement>(css);
	return audio !== null && audio.readyState >= 1 && Number.isFinite(audio.duration);
}

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('what the engine offers the player and read aloud', async () => {
		const { browser } = session;
		await signIn(session);
		const offers = await browser.evaluate(() => ({
			mediaSession: 'mediaSession' in navigator,
			positionState:
				'mediaSession' in navigator &&
				typeof navigator.mediaSession.setPositionState === 'function',
			speech: typeof speechSynthesis !== 'undefined',
			voices: typeof speechSynthesis !== 'undefined' ? speechSynthesis.getVoices().length : 0
		}));
		console.log(engine, 'media support', JSON.stringify(offers));
		// "Read aloud" is offered exactly where the engine has a voice (ReadAloud.svelte).
		await openFeed(session, /^Testbed Tech News/);
		await click(browser, headline(/Tech news 02/));
		await waitFor(
			browser,
			`"Read aloud" shown only with voices (${offers.voices})`,
			(voices: number) => {
				// It is in the article's More menu, whose panel is built when it first opens.
				const more = document.querySelector(
					'[role="toolbar"][aria-label="Article actions"] details.menu > .panel[role="group"]'
				);
				const menu = more?.closest('details');
				if (menu && !menu.open) menu.open = true;
				return (
					document.getElementById('article-title') !== null &&
					menu?.open === true &&
					more?.childElementCount !== 0 &&
					[...document.querySelectorAll('button')].some(
						(b) => b.textContent?.trim() === 'Read aloud'
					) ===
						voices > 0
				);
			},
			offers.voices
		);
	});

	test.skipIf(engine === 'webkit')(
		'an enclosure resumes where it was left after a reload',
		async () => {
			const { browser } = session;
			await openFeed(session, /^Testbed Podcast/);
			await click(browser, headline(/Episode 1: a tone/));
			await waitFor(browser, 'the audio enclosure with its metadata', audioReady, PLAYER);
			await browser.evaluate(
				(css: string) =>
					new Promise<void>((resolve) => {
						const audio = document.querySelector<HTMLAudioElement>(css);
						audio?.addEventListener('seeked', () => resolve(), { once: true });
						if (audio) audio.currentTime = 0.6;
					}),
				PLAYER
			);
			// Saved on `seeked`; IndexedDB commits right after.
			await waitFor(
				browser,
				'the position saved',
				() =>
					new Promise<boolean>((resolve) => {
						const open = indexedDB.open('ttrss-reader');
						open.onsuccess = () => {
							const get = open.result
								.transaction('media')
								.objectStore('media')
								.get('http://feeds.test/media/tone.wav');
							get.onsuccess = () => {
								open.result.close();
								const value = get.result as { position?: number } | undefined;
								resolve((value?.position ?? 0) > 0.5);
							};
						};
						open.onerror = () => resolve(false);
					})
			);
			await browser.reload();
			await waitFor(browser, 'the audio enclosure after the reload', audioReady, PLAYER);
			await waitFor(
				browser,
				'the position restored',
				(css: string) => {
					const audio = document.querySelector<HTMLAudioElement>(css);
					return audio !== null && Math.abs(audio.currentTime - 0.6) < 0.1;
				},
				PLAYER
			);
		}
	);
});
