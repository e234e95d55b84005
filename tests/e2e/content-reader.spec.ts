/**
 * Hostile content through the real reader: sign in through the UI, open articles of the hostile
 * feeds in the article view (`/feed/<feed>/<article>`), which renders bodies with ArticleContent.
 * A sample of the corpus here (every category, every frame vector); the whole corpus goes through
 * the same component in content-corpus.spec.ts. The suite's fixture fails on any CSP report.
 */
import { TtrssClient } from '../../src/lib/api/client';
import { IFRAME_SANDBOX } from '../../src/lib/content/sanitize-policy';
import { corpus, corpusTitle, PWNED_PATH } from '../fixtures/hostile/corpus';
import { contentViolations } from '../fixtures/hostile/invariants';
import { resetTestbed, testbed } from '../support/testbed';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { signIn } from './reader-support';

interface Target {
	name: string;
	title: string;
	feedId: number;
	articleId: number;
}

let corpusTargets: Target[] = [];
let hostileFeedId = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
	resetTestbed();
	const credentials = { user: testbed.user, password: testbed.password };
	const client = new TtrssClient({ apiUrl: testbed.apiUrl, credentials: () => credentials });
	await client.login(credentials);
	const feeds = await client.getFeeds({ catId: 0 });
	const corpusFeed = feeds.find((f) => f.title === 'Testbed Hostile Corpus');
	const hostile = feeds.find((f) => f.title === 'Testbed Hostile HTML');
	if (!corpusFeed || !hostile) throw new Error('hostile feeds missing: run testbed/setup.sh');
	hostileFeedId = hostile.id;
	const { headlines } = await client.getHeadlines({ feedId: corpusFeed.id, limit: 200 });
	// One vector per category, and every vector that involves frames.
	const seen = new Set<string>();
	const sample = corpus.filter((v) => {
		const pick = !seen.has(v.category) || /iframe|frame|srcdoc/.test(v.name);
		seen.add(v.category);
		return pick;
	});
	corpusTargets = sample.map((v) => {
		const title = corpusTitle(corpus.indexOf(v), v);
		const h = headlines.find((x) => x.title === title);
		if (!h) throw new Error(`no headline ${title}`);
		return { name: v.name, title, feedId: corpusFeed.id, articleId: h.id };
	});
	await client.logout();
});

test.afterAll(() => {
	// Opening articles marks them read.
	resetTestbed();
});

/** Follows a link to `href` as the app's router does for one the reader taps (no page load). */
async function followInApp(page: Page, href: string): Promise<void> {
	await page.evaluate((to) => {
		const link = document.createElement('a');
		link.href = to;
		// Inside the app's root (app.html), where SvelteKit's router takes clicks on links.
		(document.body.firstElementChild ?? document.body).append(link);
		link.click();
		link.remove();
	}, href);
	await expect(page).toHaveURL(new RegExp(`${href}$`));
}

test('hostile articles render inert in the real article view', async ({ page }) => {
	test.setTimeout(180_000);
	const markers: string[] = [];
	const pwned: string[] = [];
	const dialogs: string[] = [];
	await page.exposeBinding('__pwnedReport', (_s, name: string) => void markers.push(name));
	await page.addInitScript(() => {
		const w = window as unknown as Record<string, unknown>;
		w.__pwned = (name: string) => (w.__pwnedReport as (n: string) => void)(name);
	});
	page.on('request', (r) => {
		if (r.url().includes(PWNED_PATH)) pwned.push(r.url());
	});
	page.on('dialog', (d) => {
		dialogs.push(d.message());
		void d.dismiss();
	});

	await signIn(page);

	expect(corpusTargets.length).toBeGreaterThan(10);
	for (const [index, target] of corpusTargets.entries()) {
		const href = `/feed/${target.feedId}/${target.articleId}`;
		// The first through a page load; the rest as the reader moves between articles, in the app
		// (a link its router follows): 25 page loads took 50 of the test's 53 s.
		if (index === 0) await page.goto(href);
		else await followInApp(page, href);
		await expect(page.locator('#article-title'), target.name).toHaveText(target.title);
		const content = page.locator('.article-content');
		await expect(content, target.name).toHaveCount(1);
		const problems = await content.evaluate((el) => {
			const out: string[] = [];
			for (const node of Array.from(el.querySelectorAll('*'))) {
				const position = getComputedStyle(node).position;
				if (position !== 'static' && position !== 'relative')
					out.push(`position:${position} on <${node.localName}>`);
			}
			return out;
		});
		expect(problems, target.name).toEqual([]);
		await page.evaluate(`window.__contentViolations = ${contentViolations.toString()}`);
		const violations = await content.evaluate((el) => {
			const check = (window as unknown as Record<string, unknown>).__contentViolations as (
				root: ParentNode,
				o: { iframesAllowed: boolean }
			) => string[];
			return check(el, { iframesAllowed: true });
		});
		expect(violations, target.name).toEqual([]);
		const sandboxes = await content
			.locator('iframe')
			.evaluateAll((frames) => frames.map((f) => f.getAttribute('sandbox')));
		expect(
			sandboxes.filter((s) => s !== IFRAME_SANDBOX),
			target.name
		).toEqual([]);
	}
	await page.waitForTimeout(1_000);
	expect(markers).toEqual([]);
	expect(pwned).toEqual([]);
	expect(dialogs).toEqual([]);
});

test('titles and authors with markup render as text', async ({ page }) => {
	await signIn(page);

	await page.goto(`/feed/${hostileFeedId}`);
	// The feed's title was "<b>HTML</b> in <script>alert('title')</script> title"; this server strips
	// tags from titles, the app must show whatever arrives as text and create no element from it.
	const list = page.getByRole('region', { name: /Headlines|Testbed Hostile HTML/ }).first();
	await expect(page.getByText("HTML in alert('title') title").first()).toBeVisible();
	await expect(list.locator('script, b, style, iframe, img[onerror]')).toHaveCount(0);
	await page.getByText("HTML in alert('title') title").first().click();
	await expect(page.getByText("Mallory alert('author')").first()).toBeVisible();
	await expect(page.locator('main script, article script')).toHaveCount(0);
});
