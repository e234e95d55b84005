/**
 * The special feeds as the reader arranged them on this device: which show in the tree and in
 * what order, with the device's own Today feed among them. Pure; the choice is kept by
 * state/special-feeds.svelte.ts.
 */
import { DEVICE_FEED, SPECIAL_FEED, type FeedTree, type TreeFeed } from '$lib/api';

export interface SpecialFeedsChoice {
	/** Feed ids in the reader's order; feeds not named keep the server's order after them. */
	order: number[];
	/** Feed ids the tree leaves out (All articles is always shown). */
	hidden: number[];
}

export const DEFAULT_SPECIAL_CHOICE: SpecialFeedsChoice = { order: [], hidden: [] };

/** The feeds a reader may hide (All articles stays: it is every list's way back). */
export const HIDEABLE_SPECIAL: readonly number[] = [
	SPECIAL_FEED.fresh,
	SPECIAL_FEED.starred,
	SPECIAL_FEED.published,
	SPECIAL_FEED.archived,
	SPECIAL_FEED.recentlyRead,
	DEVICE_FEED.today
];

export function parseSpecialChoice(raw: unknown): SpecialFeedsChoice | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const v = raw as Record<string, unknown>;
	const ids = (list: unknown): number[] | undefined =>
		Array.isArray(list) && list.every((id) => Number.isInteger(id))
			? [...new Set(list as number[])]
			: undefined;
	const order = ids(v.order);
	const hidden = ids(v.hidden);
	return order && hidden ? { order, hidden } : undefined;
}

/** The server's special feeds with Today added (after Fresh), in the reader's order. */
export function orderedSpecial(
	special: readonly TreeFeed[],
	todayTitle: string,
	choice: SpecialFeedsChoice
): TreeFeed[] {
	const withToday = [...special];
	if (!withToday.some((f) => f.id === DEVICE_FEED.today)) {
		const today: TreeFeed = {
			id: DEVICE_FEED.today,
			title: todayTitle,
			unread: undefined,
			error: undefined
		};
		const fresh = withToday.findIndex((f) => f.id === SPECIAL_FEED.fresh);
		withToday.splice(fresh === -1 ? withToday.length : fresh + 1, 0, today);
	}
	const rank = (id: number): number => {
		const at = choice.order.indexOf(id);
		return at === -1 ? choice.order.length : at;
	};
	// A stable sort: the feeds the reader did not place keep the server's order among themselves.
	return withToday
		.map((feed, i) => ({ feed, i }))
		.sort((a, b) => rank(a.feed.id) - rank(b.feed.id) || a.i - b.i)
		.map(({ feed }) => feed);
}

/** The tree as the reader arranged it: special feeds ordered, hidden ones left out. */
export function arrangeTree(
	tree: FeedTree,
	todayTitle: string,
	choice: SpecialFeedsChoice
): FeedTree {
	const hidden = new Set(choice.hidden.filter((id) => HIDEABLE_SPECIAL.includes(id)));
	const special = orderedSpecial(tree.special, todayTitle, choice).filter((f) => !hidden.has(f.id));
	return { ...tree, special };
}
