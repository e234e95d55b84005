/**
 * An offline pack that keeps enclosures, on the real test bed: the podcast feed's files are kept
 * by the service worker during the sync (src/lib/offline/media.ts) and, with the network gone,
 * the episode plays and seeks from that copy, answered by range (206 Partial Content) by the
 * worker (src/service-worker/worker-media.ts) — better than the test bed's own host, which ignores Range.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { resetTestbed } from '../support/testbed';
import { cutNetwork, signIn } from './offline-support';
import { expect, test } from './support/fixtures';

const PODCAST = 'Testbed Podcast';
const EPISODE_1 = 'Episode 1: a tone (audio enclosure)';
const TONE = 'http://feeds.test/media/tone.wav';
const TONE_BYTES = 16044;
const MEDIA = 'http://feeds.test/media/**';

test.beforeEach(() => {
	resetTestbed();
});

/**
 * Podcast hosts and CDNs commonly send `Access-Control-Allow-Origin: *`; Python's http.server
 * does not. Served here as they do (same bytes, same URL, the header added), so the worker gets
 * a copy it can read and slice.
 */
async function hostAllowsCors(context: BrowserContext): Promise<void> {
	await context.route(MEDIA, async (route) => {
		const response = await route.fetch();
		await route.fulfill({
			response,
			headers: { ...response.headers(), 'access-control-allow-origin': '*' }
		});
	});
}

/** Keeps the podcast feed as a pack with its enclosures, from Settings. */
async function keepPodcastWithEnclosures(page: Page): Promise<void> {
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByLabel('Category, feed or label').selectOption({ label: PODCAST });
	await page.getByLabel('Newest articles').fill('5');
	await page.getByLabel('Keep enclosures too (audio, video)').check();
	await page.getByRole('button', { name: 'Keep offline' }).click();
	await expect(page.getByLabel(`Keep the enclosures of ${PODCAST}`)).toBeChecked();
}

function keptMedia(page: Page): Promise<string[]> {
	return page.evaluate(async () =>
		(await caches.has('media-v1'))
			? (await (await caches.open('media-v1')).keys()).map((r) => r.url)
			: []
	);
}

/** The enclosures refused or failed, remembered with their backoff (media.ts). */
function failedMedia(page: Page): Promise<string[]> {
	return page.evaluate(async () =>
		(await caches.has('media-failures-v1'))
			? (await (await caches.open('media-failures-v1')).keys()).map((r) => r.url)
			: []
	);
}

/** Offline for pages, the worker's API calls and the feed host: only the kept copy is left. */
async function goOffline(context: BrowserContext): Promise<void> {
	await context.unrouteAll({ behavior: 'ignoreErrors' });
	await cutNetwork(context);
	await context.route('http://feeds.test/**', (route) => route.abort('internetdisconnected'));
}

async function openEpisode(page: Page): Promise<void> {
	await page.reload();
	await page
		.locator('nav[aria-label="Feeds"]')
		.getByRole('link', { name: new RegExp(`^${PODCAST}`) })
		.click();
	await page.getByRole('link', { name: EPISODE_1 }).first().click();
	await expect(page.getByRole('heading', { level: 1, name: EPISODE_1 })).toBeVisible();
}

function audio(page: Page) {
	return page.getByRole('group', { name: 'Player: tone.wav' }).locator('audio');
}

test("a pack's enclosure plays and seeks offline, answered by range from the kept copy", async ({
	context,
	page
}) => {
	await hostAllowsCors(context);
	await signIn(page);
	await keepPodcastWithEnclosures(page);
	// The pack syncs at once; the worker keeps its files (audio, two videos, the cover image).
	await expect.poll(() => keptMedia(page), { timeout: 30_000 }).toContain(TONE);
	await expect.poll(async () => (await keptMedia(page)).length, { timeout: 30_000 }).toBe(4);

	await page.goto('/settings/storage');
	await expect(page.getByTestId('media-count')).toHaveText(/^4 files, \d+ kB$/);
	await expect(page.getByTestId('media-count')).not.toContainText('about');

	await goOffline(context);
	const answers: { status: number; range: string | undefined }[] = [];
	page.on('response', (response) => {
		if (response.url() === TONE && response.fromServiceWorker())
			answers.push({ status: response.status(), range: response.headers()['content-range'] });
	});
	await openEpisode(page);
	await expect
		.poll(() => audio(page).evaluate((a: HTMLAudioElement) => a.readyState))
		.toBeGreaterThanOrEqual(1);
	// The element's first request is `Range: bytes=0-`: a 206 for the whole file, from the worker.
	expect(answers[0]).toEqual({ status: 206, range: `bytes 0-${TONE_BYTES - 1}/${TONE_BYTES}` });

	// Seekable over the whole file (a host that ignores ranges makes it unseekable in Chromium).
	const seek = await audio(page).evaluate(
		(a: HTMLAudioElement) =>
			new Promise<{ time: number; seekableEnd: number; duration: number }>((resolve) => {
				a.addEventListener(
					'seeked',
					() =>
						resolve({
							time: a.currentTime,
							seekableEnd: a.seekable.length > 0 ? a.seekable.end(0) : 0,
							duration: a.duration
						}),
					{ once: true }
				);
				a.currentTime = 0.6;
			})
	);
	expect(seek.time).toBeCloseTo(0.6, 1);
	expect(seek.seekableEnd).toBeCloseTo(seek.duration, 1);
	// And it plays from there to the end, offline.
	await audio(page).evaluate(
		(a: HTMLAudioElement) =>
			new Promise<void>((resolve, reject) => {
				a.addEventListener('ended', () => resolve(), { once: true });
				a.play().catch(reject);
			})
	);
	expect(answers.every((a) => a.status === 206 || a.status === 200)).toBe(true);
	expect(await page.evaluate(() => navigator.onLine)).toBe(false);
});

test('a host without CORS: nothing is kept (its size cannot be read), the refusal is remembered, the episode plays from its host', async ({
	page
}) => {
	await signIn(page);
	await keepPodcastWithEnclosures(page);
	// An opaque answer's size cannot be read: neither the size cap nor the budget could hold, so
	// the file is refused, and remembered so that the next syncs do not fetch it again.
	await expect.poll(() => failedMedia(page), { timeout: 30_000 }).toContain(TONE);
	expect(await keptMedia(page)).toEqual([]);
	await page.goto('/settings/storage');
	await expect(page.getByTestId('media-count')).toHaveText(/^0 files, /);

	// Online, the player streams it from its host.
	await openEpisode(page);
	await audio(page).evaluate(
		(a: HTMLAudioElement) =>
			new Promise<void>((resolve, reject) => {
				a.addEventListener('ended', () => resolve(), { once: true });
				a.addEventListener('error', () => reject(new Error(`media error ${a.error?.code}`)), {
					once: true
				});
				a.play().catch(reject);
			})
	);
});

test('turning enclosures off drops the files at the next sync; "Clear media" drops them at once', async ({
	context,
	page
}) => {
	await hostAllowsCors(context);
	await signIn(page);
	await keepPodcastWithEnclosures(page);
	await expect.poll(() => keptMedia(page), { timeout: 30_000 }).toContain(TONE);

	await page.getByLabel(`Keep the enclosures of ${PODCAST}`).uncheck();
	await expect.poll(() => keptMedia(page), { timeout: 30_000 }).toEqual([]);

	await page.getByLabel(`Keep the enclosures of ${PODCAST}`).check();
	// All of them (audio, two videos, the cover image), and the sync over: a sync still running
	// (or one a page load starts) would fetch again what "Clear media" drops, as it should.
	await expect.poll(async () => (await keptMedia(page)).length, { timeout: 30_000 }).toBe(4);
	await expect(page.getByTestId('sync-running')).toHaveCount(0);
	// In the app, not a page load: no sync of a first screen.
	await page.getByRole('link', { name: 'What is stored on this device' }).click();
	await page.getByRole('button', { name: 'Clear media' }).click();
	await page.getByRole('dialog').getByRole('button', { name: 'Clear' }).click();
	await expect(page.getByTestId('storage-status')).toContainText('media files removed');
	await expect(page.getByTestId('media-count')).toHaveText(/^0 files, /);
	expect(await keptMedia(page)).toEqual([]);
});
