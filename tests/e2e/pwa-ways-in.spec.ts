import { expect, test } from './support/fixtures';
import { resetTestbed, testbed } from '../support/testbed';
import { headlineList, signIn } from './reader-support';

// Issue 56, "Ways in from the system": the manifest's protocol and file handlers and the share
// target, each opened as the browser opens it — the handler's address (the folder and a query,
// pwa/address.ts), with what the system hands over. The dispatch itself (a web+feed: link
// clicked, a file opened from the desktop) is the browser's and the system's; the manifest's
// entries are checked in src/lib/pwa/manifest.spec.ts.

const FEEDS = `http://${testbed.feedsHost}/feeds`;

test.beforeEach(() => {
	resetTestbed();
});

test('a web+feed: link opens the subscribe screen offering that feed', async ({ page }) => {
	await signIn(page);
	const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as {
		protocol_handlers: { protocol: string; url: string }[];
	};
	const handler = manifest.protocol_handlers.find((h) => h.protocol === 'web+feed');
	expect(handler).toBeDefined();
	// What Chromium opens for <a href="web+feed:http://…">: %s is the escaped link.
	const link = `web+feed:${FEEDS}/podcast.xml?via=link`;
	await page.goto((handler?.url ?? '').replace('%s', encodeURIComponent(link)));
	await expect(page.getByRole('heading', { level: 1, name: 'Subscribe' })).toBeVisible();
	await expect(page.getByRole('textbox', { name: 'Feed or site address' })).toHaveValue(
		`${FEEDS}/podcast.xml?via=link`
	);
	// The start showed the screen's own address.
	expect(new URL(page.url()).pathname).toBe('/subscribe');
	await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
	await expect(page.getByText(/^Subscribed\./)).toBeVisible();

	// Settings offers the browser's own registration (Firefox reads no manifest handlers).
	await page.goto('/settings');
	await page.getByRole('button', { name: 'Open feed links with this app' }).click();
	await expect(page.getByText('Asked the browser.')).toBeVisible();
});

test('an .opml file opened with the installed app opens the import with it (launchQueue)', async ({
	page
}) => {
	// Chromium's launch queue as the system fills it when a file is opened with the app (the
	// File Handling API is not there headless): the launch waits for the screen's consumer.
	await page.addInitScript((opml: string) => {
		const launch = {
			files: [
				{
					kind: 'file',
					getFile: () =>
						Promise.resolve(new File([opml], 'from-desktop.opml', { type: 'text/x-opml' }))
				}
			]
		};
		Object.defineProperty(window, 'launchQueue', {
			value: { setConsumer: (consume: (params: typeof launch) => void) => consume(launch) }
		});
	}, `<?xml version="1.0"?><opml version="2.0"><body><outline text="Tech"><outline type="rss" text="Extra" xmlUrl="${FEEDS}/extra.xml"/><outline type="rss" text="Tech news" xmlUrl="${FEEDS}/tech-news.xml"/></outline></body></opml>`);
	await signIn(page);
	const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as {
		file_handlers: { action: string; accept: Record<string, string[]> }[];
	};
	expect(manifest.file_handlers[0]?.accept['text/x-opml']).toEqual(['.opml']);
	await page.goto(manifest.file_handlers[0]?.action ?? '');
	await expect(
		page.getByRole('heading', { level: 1, name: 'Import and export subscriptions' })
	).toBeVisible();
	await expect(
		page.getByText('2 feeds in the file: 1 new, 1 already subscribed (skipped).')
	).toBeVisible();
});

test('a shared feed address is offered to subscribe first; the share opens the folder', async ({
	page
}) => {
	await signIn(page);
	const feed = `${FEEDS}/international.xml`;
	// The share target's action is the folder: the browser puts the shared fields in its query.
	await page.goto(`/?${new URLSearchParams({ title: 'A feed', text: `Look ${feed}` }).toString()}`);
	await expect(page.getByText("This looks like a feed's address.")).toBeVisible();
	await expect(page.getByLabel('URL')).toHaveValue(feed);
	await page.getByRole('button', { name: 'Subscribe to this feed' }).click();
	await expect(page.getByRole('textbox', { name: 'Feed or site address' })).toHaveValue(feed);

	// A page that is no feed: no such offer, the share form as before.
	await page.goto(
		`/?${new URLSearchParams({ url: `http://${testbed.feedsHost}/a/page` }).toString()}`
	);
	await expect(page.getByLabel('URL')).toHaveValue(`http://${testbed.feedsHost}/a/page`);
	await expect(page.getByText("This looks like a feed's address.")).toHaveCount(0);

	// A shortcut's address opens its list.
	await page.goto('/?to=/feed/-4');
	await expect(headlineList(page)).toBeVisible();
	expect(new URL(page.url()).pathname).toBe('/feed/-4');
});
