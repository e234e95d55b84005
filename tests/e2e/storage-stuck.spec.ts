/**
 * A start whose first read of IndexedDB never answers tells the reader so, with what to do,
 * instead of a blank screen. WebKit can leave the database in that state after a page was closed
 * while it wrote (docs/engines.md); here another tab holds the `session` store with a write
 * transaction that never ends, which blocks the start's read the same way, in Chromium.
 */
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { holdStore, signIn } from './offline-support';

test.beforeAll(() => {
	resetTestbed();
});

test('a start the browser storage never answers says so; once it answers, the app opens', async ({
	context,
	page
}) => {
	await signIn(page);

	const holder = await holdStore(context, 'session', '/login');

	await page.reload();
	const alert = page.getByRole('alert');
	await expect(alert).toContainText("Waiting for this browser's storage", { timeout: 15_000 });
	await expect(alert).toContainText('Close every tab and window of this app');

	// Try again starts the app afresh; it waits the same while the storage is still held.
	await page.getByRole('button', { name: 'Try again' }).click();
	await expect(alert).toContainText("Waiting for this browser's storage", { timeout: 15_000 });

	// Once the storage answers, the start that was waiting goes on by itself.
	await holder.close();
	await expect(page.locator('nav[aria-label="Feeds"]')).toBeVisible();
	await expect(page.getByRole('alert').filter({ hasText: 'storage' })).toHaveCount(0);
});
