/**
 * The first screen's JavaScript (docs/benchmarks.md item 4, issue 29), in the build this suite
 * serves: each figure printed beside FIRST_SCREEN_BUDGET (scripts/first-screen-js.js: 81 KB, a
 * budget missed is said), and the build failed past FIRST_SCREEN_GATE (82 KB since 2026-12-07). Two figures, as docs/i18n.md gives them:
 * - static: what index.html preloads plus the active language's start module
 *   (scripts/first-screen-js.js), for English, German and Arabic;
 * - in the browser: the scripts a warm start of /feed/-4 asked for before its first headline row
 *   existed (the start snapshot's or the app's own), as bench/run.js item 4 counts them. Also
 *   printed, not held to the budget: the scripts asked for before the app's own first headline
 *   (`app:first-headline`), which adds the muted words' read and whatever else a list waits for.
 * Each is printed, so a run shows the margin left.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	FIRST_SCREEN_BUDGET,
	FIRST_SCREEN_GATE,
	firstScreenJs,
	gzipSize
} from '../../scripts/first-screen-js.js';
import { resetTestbed } from '../support/testbed';
import { headlineList, signIn } from './reader-support';
import { expect, test } from './support/fixtures';

const BUILD_DIR = process.env.BUILD_DIR ?? 'build';
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

test('static: the preloaded modules and the start module of en, de and ar are within the gate', () => {
	for (const locale of ['en', 'de', 'ar']) {
		const { files, gzip } = firstScreenJs({ dir: BUILD_DIR, locale });
		const verdict = gzip <= FIRST_SCREEN_BUDGET ? 'met' : 'MISSED';
		console.log(
			`[first-screen] static ${locale}: ${kb(gzip)} gzip, ${files.length} files (budget ${kb(FIRST_SCREEN_BUDGET)} ${verdict})`
		);
		expect(files.length, locale).toBeGreaterThan(2);
		expect(gzip, `${locale}: ${kb(gzip)}`).toBeLessThanOrEqual(FIRST_SCREEN_GATE);
	}
});

test.describe('in the browser', () => {
	test.beforeAll(() => {
		resetTestbed();
	});

	test('a warm start of /feed/-4 asks for at most the budget of scripts before its first headline is drawn', async ({
		page,
		context
	}) => {
		await signIn(page);
		await expect(headlineList(page)).toBeVisible();
		// The worker has the build in its cache once it controls the page: the warm start's case.
		await page.evaluate(() => navigator.serviceWorker.ready);
		await page.close();

		const start = await context.newPage();
		// As bench/scenarios.js: the frame in which the first headline row exists (the start
		// snapshot's or the app's own).
		await start.addInitScript(() => {
			const look = (): void => {
				if (document.querySelector('.headline[data-article-id]'))
					(window as unknown as { firstHeadline: number }).firstHeadline = performance.now();
				else requestAnimationFrame(look);
			};
			requestAnimationFrame(look);
		});
		await start.goto('/feed/-4');
		await start.waitForFunction(
			() =>
				'firstHeadline' in window && performance.getEntriesByName('app:first-headline').length > 0
		);
		const { drawn, appsOwn } = await start.evaluate(() => {
			const scriptsUntil = (at: number): string[] =>
				performance
					.getEntriesByType('resource')
					.filter((e) => e.startTime <= at)
					.map((e) => new URL(e.name).pathname)
					.filter((path) => path.endsWith('.js') && !path.endsWith('/service-worker.js'));
			const first = (window as unknown as { firstHeadline: number }).firstHeadline;
			const own = performance.getEntriesByName('app:first-headline')[0]?.startTime ?? first;
			return { drawn: scriptsUntil(first), appsOwn: scriptsUntil(own) };
		});
		const size = (paths: string[]) => {
			const files = [...new Set(paths)];
			const gzip = files.reduce(
				(sum, path) => sum + gzipSize(readFileSync(join(BUILD_DIR, path))),
				0
			);
			return { files, gzip };
		};
		const item4 = size(drawn);
		const own = size(appsOwn);
		console.log(
			`[first-screen] browser: ${kb(item4.gzip)} gzip, ${item4.files.length} files before the first headline; ` +
				`${kb(own.gzip)}, ${own.files.length} files before the app's own (app:first-headline)`
		);
		// At least the start snapshot's bootstrap. Since the snapshot page stopped preloading the
		// modules (issue 57), its row may be drawn before any of them is asked for: then the figure is
		// that script alone, and the budget is met by the snapshot (in the 2026-12-07 run it was,
		// 0.2 KB in 1 file; before, the modules' requests often came first).
		expect(item4.files.length).toBeGreaterThan(0);
		console.log(
			`[first-screen] browser: budget ${kb(FIRST_SCREEN_BUDGET)} ${item4.gzip <= FIRST_SCREEN_BUDGET ? 'met' : 'MISSED'}`
		);
		expect(item4.gzip, `${kb(item4.gzip)}: ${item4.files.join(' ')}`).toBeLessThanOrEqual(
			FIRST_SCREEN_GATE
		);
	});
});
