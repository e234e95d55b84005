/**
 * Which cached articles a feature that acts on arriving articles has considered (the reader's
 * rules, rules/after-sync.ts; the new-article alerts, alerts/notify.ts): per account, in a `sync` store
 * key its owner declares, so the page and the service worker share it and a sign-out wipes it
 * with the rest of the account.
 *
 * Not a high-water mark: articles do not reach the device in id order (after a burst bigger than
 * the sync's article count the older new ones come in later syncs; a list the reader opens brings
 * its rows in between), so "every id below the newest considered" would skip them.
 *
 * Bounded: the ids considered above a floor, at most `MAX_CONSIDERED`; every id at or below the
 * floor counts as considered. The floor starts at the newest article stored when the feature
 * starts (what is already here is not news) and rises only past the oldest ids when the set is
 * full. So an article is never considered twice (an id leaves the set only by going under the
 * floor), and it is considered unless 20,000 newer ones were considered before it first reached
 * the device — far more than the device keeps, so such an article is an old one (a list scrolled
 * far back), not an arrival. Pruning to the ids still cached would not do: an evicted article can
 * come back (starred, a pack, a list) and would be considered again.
 *
 * Claim, then act: `claimArrivals` takes the articles not yet considered and marks them
 * considered in one transaction, which page and worker run one at a time, so whoever claims an
 * article acts on it and the other finds nothing, with or without Web Locks.
 */
import type { StoredArticle } from './schema';
import { CACHE_OWNER } from './keys';
import { isRecord, readIn, writeIn, type StoredKey } from './kv';
import { openReaderDb } from './open';
import { writeTx } from './tx';

export interface Considered {
	/** Every article id at or below it counts as considered. */
	floor: number;
	/** The ids above the floor considered, ascending, each once. */
	ids: number[];
}

/** Ids kept above the floor (one value, read and written once a run). */
export const MAX_CONSIDERED = 20_000;

const isId = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/**
 * A stored record as a `Considered`, or undefined when it is not one. The rules' memory before this
 * set, `{ last }` (the newest id considered), reads as a floor there: what it took as
 * considered still is, and everything above it is still to come.
 */
export function parseConsidered(raw: unknown): Considered | undefined {
	const v = isRecord(raw);
	if (!v) return undefined;
	if (v.floor === undefined && isId(v.last)) return { floor: v.last, ids: [] };
	if (!isId(v.floor) || !Array.isArray(v.ids)) return undefined;
	const floor = v.floor;
	const ids = [...new Set(v.ids.filter((id): id is number => isId(id) && id > floor))];
	return { floor, ids: ids.sort((a, b) => a - b) };
}

/** Whether `id` has been considered. */
export function hasConsidered(set: Considered, id: number): boolean {
	if (id <= set.floor) return true;
	let lo = 0;
	let hi = set.ids.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const at = set.ids[mid]!;
		if (at === id) return true;
		if (at < id) lo = mid + 1;
		else hi = mid - 1;
	}
	return false;
}

/** The set with `ids` considered too; over `max`, the oldest go under a raised floor. */
export function withConsidered(
	set: Considered,
	ids: Iterable<number>,
	max = MAX_CONSIDERED
): Considered {
	const added = [...ids].filter((id) => !hasConsidered(set, id));
	const all = [...new Set([...set.ids, ...added])].sort((a, b) => a - b);
	if (all.length <= max) return { floor: set.floor, ids: all };
	const over = all.length - max;
	return { floor: all[over - 1]!, ids: all.slice(over) };
}

/** A start: everything stored now counts as considered. */
const startAt = (newest: number): Considered => ({ floor: newest, ids: [] });

/**
 * Starts `key`'s set at the newest article stored (or at `from`, a start an older record kept),
 * unless it has started already or nothing is stored yet (then the first `claimArrivals`, after
 * the first sync, starts it: what that sync brings is not news either).
 */
export async function startConsidered(
	key: StoredKey<Considered | undefined>,
	from?: number
): Promise<void> {
	const db = await openReaderDb();
	await writeTx(db, ['sync', 'articles'], async (tx) => {
		if ((await readIn(tx.objectStore('sync'), key)) !== undefined) return;
		const start = from ?? (await tx.objectStore('articles').openKeyCursor(null, 'prev'))?.key ?? 0;
		if (start > 0) await writeIn(tx.objectStore('sync'), key, startAt(start));
	});
}

/**
 * Claims the cached articles `key`'s set has not considered: they are considered from now on,
 * in the transaction that read them, and returned (oldest first) for the caller to act on. None
 * when the cache is not `account`'s (signed out, or another account, while a sync ran) or when the
 * set had not started (it starts now, after what is stored).
 */
export async function claimArrivals(
	key: StoredKey<Considered | undefined>,
	account: string
): Promise<StoredArticle[]> {
	const db = await openReaderDb();
	return writeTx(db, ['sync', 'articles', 'settings'], async (tx) => {
		if ((await readIn(tx.objectStore('settings'), CACHE_OWNER)) !== account) return [];
		const sync = tx.objectStore('sync');
		const articles = tx.objectStore('articles');
		const set = await readIn(sync, key);
		if (set === undefined) {
			const newest = (await articles.openKeyCursor(null, 'prev'))?.key ?? 0;
			await writeIn(sync, key, startAt(newest));
			return [];
		}
		const keys = await articles.getAllKeys(IDBKeyRange.lowerBound(set.floor, true));
		const fresh = keys.filter((id) => !hasConsidered(set, id));
		if (fresh.length === 0) return [];
		await writeIn(sync, key, withConsidered(set, fresh));
		const rows = await Promise.all(fresh.map((id) => articles.get(id)));
		return rows.filter((row): row is StoredArticle => row !== undefined);
	});
}
