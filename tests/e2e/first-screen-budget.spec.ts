/**
 * The first screen's JavaScript budget (docs/benchmarks.md item 4, issue 29): at most 80 KB gzip,
 * in the build this suite serves. Two figures, as docs/i18n.md gives them:
 * - static: what index.html preloads plus the active language's start module
 *   (scripts/first-screen-js.js), for English, German and Arabic;
 * - in the browser: the scripts a warm start of /feed/-4 asked for before its first headline was
 *   drawn (the app's `app:first-headline` mark), as bench/run.js item 4 counts them.
 * Each is printed, so a run shows the margin left.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIRST_SCREEN_BUDGET, firstScreenJs, gzipSize } from '../../scripts/first-screen-js.js';
import { resetTestbed } from '../support/testbed';
import { headlineList, signIn } from './reader-support';
import { expect, test } from './support/fixtures';

const BUILD_DIR = process.env.BUILD_DIR ?? 'build';
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

test('static: the preloaded modules and the start module of en, de and ar are within 80 KB gzip', () => {
	for (const locale of ['en', 'de', 'ar']) {
		const { files, gzip } = firstScreenJs({ dir: BUILD_DIR, locale });
		console.log(`[first-screen] static ${locale}: ${kb(gzip)} gzip, ${files.length} files`);
		expect(files.length, locale).toBeGreaterThan(2);
		expect(gzip, `${locale}: ${kb(gzip)}`).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET);
	}
});

test.describe('in the browser', () => {
	test.beforeAll(() => {
		resetTestbed();
	});

	test('a warm start of /feed/-4 loads at most 80 KB gzip of scripts before its first headline', async ({
		page,
		context
	}) => {
		await signIn(page);
		await expect(headlineList(page)).toBeVisible();
		// The worker has the build in its cache once it controls the page: the warm start's case.
		await page.evaluate(() => navigator.serviceWorker.ready);
		await page.close();

		const start = await context.newPage();
		await start.goto('/feed/-4');
		await start.waitForFunction(
			() => performance.getEntriesByName('app:first-headline').length > 0
		);
		const scripts = await start.evaluate(() => {
			const painted = performance.getEntriesByName('app:first-headline')[0]?.startTime ?? 0;
			return performance
				.getEntriesByType('resource')
				.filter((e) => e.startTime <= painted)
				.map((e) => new URL(e.name).pathname)
				.filter((path) => path.endsWith('.js') && !path.endsWith('/service-worker.js'));
		});
		const files = [...new Set(scripts)];
		const gzip = files.reduce(
			(sum, path) => sum + gzipSize(readFileSync(join(BUILD_DIR, path))),
			0
		);
		console.log(`[first-screen] browser: ${kb(gzip)} gzip, ${files.length} files`);
		// The start module of the language is among them (the router waits for it).
		expect(files.length).toBeGreaterThan(2);
		expect(gzip, `${kb(gzip)}: ${files.join(' ')}`).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET);
	});
});
