import type { Page } from '@playwright/test';
import { ArticleField, UpdateMode } from '../../src/lib/api/index';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	openFeed,
	headlineLink,
	seriousA11yViolations,
	serverClient,
	serverHeadline,
	signIn
} from './reader-support';

// The reading extras against the real test bed: the podcast feed's enclosures (Debian's Chromium
// plays the WAV and the WebM; the MP4 is not used because its H.264 codec may be missing) and the
// article image viewer. Writes the docs' screenshots of both, desktop and phone.

const EPISODE_1 = 'Episode 1: a tone (audio enclosure)';
const TONE = 'http://feeds.test/media/tone.wav';

test.beforeEach(() => {
	resetTestbed();
});

async function openArticle(page: Page, feed: RegExp, title: string | RegExp): Promise<void> {
	await openFeed(page, feed);
	await headlineLink(page, title).click();
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

function player(page: Page) {
	return page.getByRole('group', { name: 'Player: tone.wav' });
}

/**
 * The test bed's feed host (Python's http.server) ignores Range requests, so Chromium cannot seek
 * in its files at all; podcast hosts answer ranges. The WAV is served here as they do, the same
 * bytes from the same URL, in 206 parts.
 */
async function serveWithRanges(page: Page, url: string): Promise<void> {
	await page.route(url, async (route) => {
		const response = await route.fetch();
		const body = await response.body();
		const headers = { 'content-type': 'audio/wav', 'accept-ranges': 'bytes' };
		const range = /bytes=(\d+)-(\d*)/.exec(route.request().headers()['range'] ?? '');
		if (!range) return route.fulfill({ status: 200, body, headers });
		const start = Number(range[1]);
		const end = range[2] ? Number(range[2]) : body.length - 1;
		return route.fulfill({
			status: 206,
			body: body.subarray(start, end + 1),
			headers: { ...headers, 'content-range': `bytes ${start}-${end}/${body.length}` }
		});
	});
}

/** Marks an article unread on the server (seeded read ones are not in the default list). */
async function markUnreadOnServer(title: string): Promise<void> {
	const client = await serverClient();
	const { id } = await serverHeadline(client, title);
	await client.updateArticle({
		articleIds: [id],
		field: ArticleField.Unread,
		mode: UpdateMode.True
	});
}

/** Waits until the enclosure's metadata is loaded (its duration is known). */
async function audioReady(page: Page): Promise<void> {
	await expect
		.poll(() =>
			player(page)
				.locator('audio')
				.evaluate((a: HTMLAudioElement) => a.readyState)
		)
		.toBeGreaterThanOrEqual(1);
}

/** What the app saved for an enclosure, read from IndexedDB as it is on disk. */
function savedPosition(page: Page, url: string): Promise<unknown> {
	return page.evaluate(
		(key) =>
			new Promise((resolve, reject) => {
				const open = indexedDB.open('ttrss-reader');
				open.onerror = () => reject(new Error('open failed'));
				open.onsuccess = () => {
					const db = open.result;
					const get = db.transaction('media').objectStore('media').get(key);
					get.onsuccess = () => {
						db.close();
						resolve(get.result);
					};
					get.onerror = () => reject(new Error('get failed'));
				};
			}),
		url
	);
}

test('an enclosure resumes where it was left, at the speed chosen, after a reload', async ({
	page
}) => {
	await serveWithRanges(page, TONE);
	await signIn(page);
	await openArticle(page, /^Testbed Podcast/, EPISODE_1);
	await audioReady(page);

	await player(page).getByLabel('Speed').selectOption('1.5');
	await player(page)
		.locator('audio')
		.evaluate(
			(a: HTMLAudioElement) =>
				new Promise<void>((resolve) => {
					a.addEventListener('seeked', () => resolve(), { once: true });
					a.currentTime = 0.6;
				})
		);
	await expect
		.poll(() => savedPosition(page, TONE))
		.toMatchObject({ position: expect.closeTo(0.6, 1), finished: false });

	await page.reload();
	await expect(page.getByRole('heading', { level: 1, name: EPISODE_1 })).toBeVisible();
	await audioReady(page);
	await expect(player(page).getByRole('status')).toHaveText('Resumed at 0:00');
	const after = await player(page)
		.locator('audio')
		.evaluate((a: HTMLAudioElement) => ({ time: a.currentTime, rate: a.playbackRate }));
	expect(after.time).toBeCloseTo(0.6, 1);
	expect(after.rate).toBe(1.5);
	await expect(player(page).getByLabel('Speed')).toHaveValue('1.5');
});

test('played to the end, the enclosure marks its article read on the server', async ({ page }) => {
	const client = await serverClient();
	await signIn(page);
	await openArticle(page, /^Testbed Podcast/, EPISODE_1);
	// Opening marked it read; unread again, so only the end of playback can mark it.
	await page.getByRole('button', { name: 'Mark unread' }).click();
	await expect.poll(async () => (await serverHeadline(client, EPISODE_1)).unread).toBe(true);

	await audioReady(page);
	// The click above is the user gesture the autoplay policy asks for.
	await player(page)
		.locator('audio')
		.evaluate(
			(a: HTMLAudioElement) =>
				new Promise<void>((resolve, reject) => {
					a.addEventListener('ended', () => resolve(), { once: true });
					a.play().catch(reject);
				})
		);
	await expect(page.getByRole('button', { name: 'Mark unread' })).toBeVisible();
	await expect.poll(async () => (await serverHeadline(client, EPISODE_1)).unread).toBe(false);
	// Finished: the next play starts from the beginning.
	await expect.poll(() => savedPosition(page, TONE)).toMatchObject({ finished: true });
});

test('the WebM video enclosure plays in the same player', async ({ page }) => {
	await signIn(page);
	await openArticle(page, /^Testbed Podcast/, /Episode 2/);
	const video = page.getByRole('group', { name: 'Player: clip.webm' }).locator('video');
	await expect
		.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState))
		.toBeGreaterThanOrEqual(1);
	expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0.5);
});

test('read aloud is offered only where the browser has voices', async ({ page }) => {
	await signIn(page);
	await openArticle(page, /^Testbed Tech News/, /Tech news 01/);
	const voices = await page.evaluate(
		() =>
			new Promise<number>((resolve) => {
				if (typeof speechSynthesis === 'undefined') return resolve(0);
				if (speechSynthesis.getVoices().length > 0)
					return resolve(speechSynthesis.getVoices().length);
				speechSynthesis.addEventListener('voiceschanged', () =>
					resolve(speechSynthesis.getVoices().length)
				);
				// No event within a second: this browser has no voices (Chromium headless here).
				setTimeout(() => resolve(speechSynthesis.getVoices().length), 1000);
			})
	);
	// It is in the article's "More article actions" menu.
	await page.locator('summary', { hasText: 'More article actions' }).click();
	const button = page.getByRole('button', { name: 'Read aloud' });
	if (voices === 0) await expect(button).toHaveCount(0);
	else await expect(button).toBeVisible();
});

for (const layout of [
	{ name: 'desktop', viewport: { width: 1440, height: 900 } },
	{ name: 'phone', viewport: { width: 390, height: 844 } }
]) {
	test(`image viewer, ${layout.name}: next/previous, zoom, Escape and back close it`, async ({
		page
	}) => {
		await page.setViewportSize(layout.viewport);
		await markUnreadOnServer('Event handlers');
		await signIn(page);
		// Two body images, one with on* handlers the sanitizer removed, one that is broken.
		await openArticle(page, /^Testbed Hostile HTML/, 'Event handlers');
		const first = page.getByRole('button', { name: 'View image: handlers' });
		await first.click();
		const viewer = page.getByRole('dialog', { name: 'Image 1 of 2' });
		await expect(viewer).toBeVisible();
		await expect(viewer.getByRole('img', { name: 'handlers' })).toHaveAttribute(
			'src',
			'http://feeds.test/media/red-64x48.png'
		);
		expect(await seriousA11yViolations(page), 'viewer').toEqual([]);

		await page.keyboard.press('ArrowRight');
		await expect(page.getByRole('dialog', { name: 'Image 2 of 2' })).toBeVisible();
		await expect(page.getByRole('button', { name: 'Next image' })).toBeDisabled();
		await page.keyboard.press('ArrowLeft');
		await expect(viewer).toBeVisible();

		// A swipe (pointer drag to the left) turns to the next image.
		const stage = viewer.locator('.stage');
		const box = await stage.boundingBox();
		if (!box) throw new Error('no stage');
		await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2);
		await page.mouse.down();
		await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2, { steps: 5 });
		await page.mouse.up();
		await expect(page.getByRole('dialog', { name: 'Image 2 of 2' })).toBeVisible();
		await page.getByRole('button', { name: 'Previous image' }).click();
		await expect(viewer).toBeVisible();

		await page.keyboard.press('+');
		await expect(viewer.getByRole('img', { name: 'handlers' })).toHaveAttribute(
			'style',
			/scale\(1\.5\)/
		);
		await page.keyboard.press('0');
		await expect(viewer.getByRole('img', { name: 'handlers' })).toHaveAttribute(
			'style',
			/scale\(1\)/
		);

		await page.keyboard.press('Escape');
		await expect(page.getByRole('dialog')).toHaveCount(0);
		await expect(first).toBeFocused();
		// Still on the article (Escape closed only the viewer).
		await expect(page.getByRole('heading', { level: 1, name: 'Event handlers' })).toBeVisible();

		// The back button (a phone's) closes the viewer and stays on the article.
		const url = page.url();
		await first.click();
		await expect(viewer).toBeVisible();
		await page.goBack();
		await expect(page.getByRole('dialog')).toHaveCount(0);
		expect(page.url()).toBe(url);
		await expect(page.getByRole('heading', { level: 1, name: 'Event handlers' })).toBeVisible();
	});

	test(`screenshots and axe, ${layout.name}: the player and the image viewer`, async ({ page }) => {
		await page.setViewportSize(layout.viewport);
		await page.emulateMedia({ colorScheme: 'light' });
		await signIn(page);
		await openArticle(page, /^Testbed Podcast/, EPISODE_1);
		await audioReady(page);
		expect(await seriousA11yViolations(page), 'player').toEqual([]);
		await page.locator('h1:focus').evaluate((el) => (el as HTMLElement).blur());
		await page.screenshot({ path: `docs/screenshots/player-${layout.name}.png` });

		// From the home screen (the brand link: a start at `/` would resume the open article): on a
		// phone the feed list is its own screen.
		await page.getByRole('link', { name: 'Reader', exact: true }).click();
		await openArticle(page, /^Testbed Tech News/, /Tech news 01/);
		const image = page.getByRole('button', { name: 'View image: Gradient 1' });
		await image.click();
		const viewer = page.getByRole('dialog', { name: 'Image 1 of 1' });
		await expect(viewer).toBeVisible();
		await viewer.getByRole('img').evaluate((img: HTMLImageElement) => img.decode());
		await page.screenshot({ path: `docs/screenshots/viewer-${layout.name}.png` });
	});
}
