/**
 * 5. The last step of a sync (sync/engine.ts): images by the reader's policy, after the text
 * (never delaying it), then the storage budget.
 */
import { keptBodies } from '$lib/cache/kept';
import { signedImagesOf } from '$lib/content/url';
import { enforceBudget } from '$lib/offline/budget';
import { imagesAllowed } from '$lib/offline/policy';
import { articleImageUrls } from '$lib/offline/images';
import { saveSyncState, type SyncState } from './state';
import type { SyncRun } from './sync-run';

/**
 * Keeps `images` (and, when the saved state says the last sync's were cut short, those of the
 * articles it names) through `cacheImages`, then enforces the budget. A page that goes away cuts
 * this short: `imagesPending` stays, and the next sync, changed or not, asks for every kept
 * article's images again (those already kept are not fetched again).
 */
export async function keepImages(
	run: SyncRun,
	{
		images,
		saved,
		stored,
		cacheImages
	}: {
		images: readonly string[];
		/** The state this sync saved. */
		saved: SyncState;
		/** The articles this sync stored, for the progress. */
		stored: number;
		cacheImages: ((urls: string[], signal?: AbortSignal) => Promise<unknown>) | undefined;
	}
): Promise<void> {
	const urls = [...images];
	if (saved.imagesPending) {
		for (const body of await keptBodies(saved.imagesPendingIds)) {
			urls.push(...articleImageUrls(body, signedImagesOf(body, run.client.imageProxy)));
		}
	}
	if (urls.length > 0 && cacheImages && (await imagesAllowed())) {
		run.report('images', stored);
		await cacheImages([...new Set(urls)], run.signal);
	}
	if (saved.imagesPending) {
		const done: SyncState = { ...saved, imagesPending: false };
		delete done.imagesPendingIds;
		await saveSyncState(run.account, done);
	}
	await enforceBudget();
}
