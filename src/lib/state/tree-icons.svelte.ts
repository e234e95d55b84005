// Feed icons that failed to load (the tree then shows a neutral dot). A state object rather than a
// SvelteSet: a SvelteSet's `has` of an id it lacks depends on every addition, so each failed icon
// re-ran the icon of every row; with 1,000 feeds without icons, whose lazy images fail one by one
// as the tree scrolls, that made long tasks of up to 0.4 s. A property read depends on its own id.
import { session } from './session.svelte';

const failed: Record<number, true> = $state({});
// Icons the web address did not serve but the API's getFeedIcon (level 19) did: object URLs.
const fetched: Record<number, string> = $state({});
// Not reactive: which icons are being asked for is no screen's business.
// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
const asking = new Set<number>();

export function iconFailed(feedId: number): boolean {
	return failed[feedId] === true;
}

export function fetchedIcon(feedId: number): string | undefined {
	return fetched[feedId];
}

/**
 * The icon's address did not load. On servers of level 19 and later the icon is asked for once
 * through the API (a server whose web server does not serve `public.php` or the icons folder to
 * this origin still answers it); otherwise, or when that fails too, the row shows a neutral dot.
 */
export function markIconFailed(feedId: number): void {
	if (fetched[feedId] !== undefined || asking.has(feedId) || !session.capabilities?.feedIcon) {
		failed[feedId] = true;
		return;
	}
	asking.add(feedId);
	session
		.api()
		.then((client) => client.getFeedIcon(feedId))
		.then((reply) => {
			if (!/^image\//i.test(reply.contentType)) throw new Error('not an image');
			fetched[feedId] = URL.createObjectURL(new Blob([reply.data], { type: reply.contentType }));
		})
		.catch(() => {
			failed[feedId] = true;
		})
		.finally(() => asking.delete(feedId));
}

/** Sign-out and account switch: the next account's icons are its own. */
export function resetTreeIcons(): void {
	for (const id of Object.keys(failed)) delete failed[Number(id)];
	for (const [id, url] of Object.entries(fetched)) {
		URL.revokeObjectURL(url);
		delete fetched[Number(id)];
	}
	asking.clear();
}
