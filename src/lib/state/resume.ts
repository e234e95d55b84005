/**
 * Resume where the reader left off: the last place (home, a list, an article in it), the list's
 * position (the first visible headline and how far into it) and the open article's scroll. Kept in
 * localStorage because a start must decide where to go synchronously, before the router's first
 * screen (hooks.client.ts): reading IndexedDB there would delay every start. Sign-out clears local
 * storage; another account's sign-in forgets it (`forgetResume`), and a record of another account
 * is never applied (`resumeFor`).
 *
 * Written cheaply: the place on each navigation, positions when scrolling has stopped for a moment
 * and when the app is hidden, never on every scroll event.
 */
import { forgetSnapshot } from '$lib/boot/snapshot-contract';
import { settleTimer } from '$lib/timing/settle';
import { parseStoredObject } from './local-json';

export const RESUME_KEY = 'reader.resume';
/** Quiet time after the last scroll event before the position is written. */
export const SCROLL_WRITE_MS = 300;
/** A start looks at most this many rows deep for the headline it left at, then stays at the top. */
export const MAX_SEEK_ROWS = 1000;
/** …and asks the server for at most this many more pages (a list that restarts its paging). */
export const MAX_SEEK_PAGES = 8;
/**
 * The rows below the top one that are kept too: the place when that headline has left the list
 * (read in a list of unread articles, unstarred in Starred, gone from the server).
 */
export const ANCHOR_NEXT_ROWS = 10;

/** A headline list, or an article in one, as the address shows it (without the base path). */
const PLACE = /^\/(feed|cat|tag)\/([^/?#]+)(?:\/(\d+))?\/?$/;

export interface ResumeRecord {
	/** The account it belongs to (db/account.ts `accountOf`). */
	account: string;
	/** `/` (home), `/feed/-4` (a list) or `/feed/-4/123` (an article in it). */
	path: string;
	/** The list's first visible headline and the pixels scrolled past its top; absent at the top. */
	anchor?: ListAnchor;
	/** The open article's scroll, in pixels. */
	scroll?: number;
}

/** Where a list was left: its top headline, how far into it, and the headlines that followed it. */
export interface ListAnchor {
	id: number;
	offset: number;
	/** The next rows' ids, nearest first (at most ANCHOR_NEXT_ROWS). */
	next?: number[];
}

/** Whether a path is a place a start may resume: home, a list, an article in a list. */
export function isResumable(path: string): boolean {
	return path === '/' || PLACE.test(path);
}

/** The list part of a place (`/feed/-4/123` → `/feed/-4`); undefined for home and other screens. */
export function listPathOf(path: string): string | undefined {
	const match = PLACE.exec(path);
	return match ? `/${match[1]}/${match[2]}` : undefined;
}

const isCount = (v: unknown): v is number =>
	typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 1e8;

/** Local storage is outside input: a broken or foreign value is no record at all. */
export function parseResume(raw: string | null): ResumeRecord | undefined {
	const v = parseStoredObject(raw);
	if (!v) return undefined;
	if (typeof v.account !== 'string' || !v.account) return undefined;
	if (typeof v.path !== 'string' || v.path.length > 300 || !isResumable(v.path)) return undefined;
	const record: ResumeRecord = { account: v.account, path: v.path };
	const anchor = v.anchor as Record<string, unknown> | undefined;
	if (
		listPathOf(v.path) &&
		anchor &&
		typeof anchor === 'object' &&
		Number.isInteger(anchor.id) &&
		isCount(anchor.offset)
	) {
		record.anchor = { id: anchor.id as number, offset: anchor.offset };
		const next = anchor.next;
		if (
			Array.isArray(next) &&
			next.length > 0 &&
			next.length <= ANCHOR_NEXT_ROWS &&
			next.every((n) => Number.isInteger(n))
		) {
			record.anchor.next = next as number[];
		}
	}
	if (PLACE.exec(v.path)?.[3] !== undefined && isCount(v.scroll)) record.scroll = v.scroll;
	return record;
}

function storage(): Storage | undefined {
	try {
		return typeof localStorage === 'undefined' ? undefined : localStorage;
	} catch {
		return undefined; // storage refused (privacy settings): nothing is resumed
	}
}

export function readResume(): ResumeRecord | undefined {
	return parseResume(storage()?.getItem(RESUME_KEY) ?? null);
}

function writeResume(record: ResumeRecord): void {
	try {
		storage()?.setItem(RESUME_KEY, JSON.stringify(record));
	} catch {
		// Storage full or refused: the next start opens where its address says.
	}
}

/** Another account signed in: where the earlier one left off is not theirs. */
export function forgetResume(): void {
	try {
		storage()?.removeItem(RESUME_KEY);
	} catch {
		// Nothing was kept either.
	}
}

/** The record, only when it is this account's. */
export function resumeFor(account: string | undefined): ResumeRecord | undefined {
	const record = readResume();
	return record && account !== undefined && record.account === account ? record : undefined;
}

/**
 * Where a start at `startPath` opens, and what it restores there. Only a start at the app's start
 * address (`/`: the installed app's icon, a bookmark, a reload of home) goes to the stored place;
 * any other address (a shared link, a notification, a URL typed) wins. The positions are restored
 * only when the start shows exactly the stored place.
 */
export function startTarget(
	startPath: string,
	record: ResumeRecord | undefined
): { path: string; restore: ResumeRecord | undefined } {
	if (!record) return { path: startPath, restore: undefined };
	const path = startPath === '/' ? record.path : startPath;
	return { path, restore: path === record.path ? record : undefined };
}

/**
 * The list position of a scroll offset: the headline at the top edge, how far into it, and the
 * headlines below it.
 */
export function anchorAt(
	scrollTop: number,
	/** Where the rows sit (components/row-offsets.ts): the row at an offset, a row's top edge. */
	rows: { indexAt(offset: number): number; top(index: number): number },
	idAt: (index: number) => number | undefined
): ListAnchor | undefined {
	if (scrollTop <= 1) return undefined;
	const index = rows.indexAt(scrollTop);
	const id = idAt(index);
	if (id === undefined) return undefined;
	const anchor: ListAnchor = { id, offset: Math.round(scrollTop - rows.top(index)) };
	const next: number[] = [];
	for (let i = index + 1; i <= index + ANCHOR_NEXT_ROWS; i++) {
		const below = idAt(i);
		if (below === undefined) break;
		next.push(below);
	}
	if (next.length > 0) anchor.next = next;
	return anchor;
}

/** What seeking the stored headline does next, from the list as it stands. */
export type SeekStep =
	| { type: 'scroll'; index: number; offset: number; final: boolean }
	| { type: 'wait' }
	| { type: 'more' }
	| { type: 'give-up' };

/**
 * One step of a start's search for the headline it left at. Rows shown from the cache are used at
 * once (no jump later when they hold it), but only the server's answer ends the search (its first
 * page replaces the cached rows). A headline that has left the list (the article opened there is
 * read now, and the list shows unread ones) gives its place to the first of the rows that followed
 * it, at that row's top. Bounded: past `maxRows`, or at the list's end, it stays at the top and
 * says nothing.
 */
export function seekStep(
	list: {
		items: readonly { id: number }[];
		loading: boolean;
		complete: boolean;
		error: string | undefined;
		/** The server's answer (or an error, or a search on the device) has replaced cached rows. */
		answered: boolean;
	},
	anchor: ListAnchor,
	pagesAsked = 0,
	maxRows = MAX_SEEK_ROWS
): SeekStep {
	const settled = list.answered && !list.loading;
	const index = list.items.findIndex((h) => h.id === anchor.id);
	if (index >= 0) return { type: 'scroll', index, offset: anchor.offset, final: settled };
	// Only the server's answer says the headline is gone: cached rows may be older than it.
	if (settled && anchor.next) {
		const indexes = new Map(list.items.map((h, i) => [h.id, i]));
		for (const id of anchor.next) {
			const below = indexes.get(id);
			if (below !== undefined) return { type: 'scroll', index: below, offset: 0, final: true };
		}
	}
	if (!settled) return { type: 'wait' };
	// Offline: the cached rows are all there is; they may still be arriving.
	if (list.error) return { type: 'wait' };
	if (list.complete || list.items.length >= maxRows || pagesAsked >= MAX_SEEK_PAGES) {
		return { type: 'give-up' };
	}
	return { type: 'more' };
}

/**
 * The page's writer: the place at each navigation, the positions once scrolling stops and when the
 * app is hidden. `onElsewhere` is told when the reader is no longer at the top of the list they
 * were at: the start snapshot (boot/start-snapshot.ts) shows a list at its top only, and a start at `/`
 * resumes the place written here, so a copy of any other screen must not be painted then.
 */
export class ResumeWriter {
	#record: ResumeRecord | undefined;
	/** Scrolls are written once scrolling stops. */
	readonly #write = settleTimer(() => this.flush(), { quietMs: SCROLL_WRITE_MS });
	readonly #onElsewhere: () => void;

	constructor(onElsewhere: () => void = () => {}) {
		this.#onElsewhere = onElsewhere;
	}

	/** The account signed in; a new account starts from nothing. */
	start(account: string): void {
		if (this.#record?.account === account) return;
		const kept = resumeFor(account);
		this.#record = kept ?? { account, path: '/' };
	}

	get record(): ResumeRecord | undefined {
		return this.#record;
	}

	/** The reader is now at `path` (any screen; only home, lists and articles are kept). */
	place(path: string): void {
		if (reopened && reopened.path !== path) reopened = undefined;
		const record = this.#record;
		if (!record || !isResumable(path) || path === record.path) return;
		const sameList = listPathOf(path) !== undefined && listPathOf(path) === listPathOf(record.path);
		this.#record = {
			account: record.account,
			path,
			...(sameList && record.anchor ? { anchor: record.anchor } : {})
		};
		this.#onElsewhere();
		this.flush();
	}

	/** The list scrolled (every scroll event: only remembered, written once scrolling stops). */
	listScrolled(anchor: ListAnchor | undefined): void {
		const record = this.#record;
		if (!record || !listPathOf(record.path)) return;
		const rest: ResumeRecord = { ...record };
		delete rest.anchor;
		this.#record = anchor ? { ...rest, anchor } : rest;
		this.#write.changed();
	}

	/** The open article scrolled. */
	articleScrolled(scroll: number): void {
		const record = this.#record;
		if (!record || listPathOf(record.path) === record.path) return;
		this.#record = { ...record, scroll: Math.max(0, Math.round(scroll)) };
		this.#write.changed();
	}

	/** Writes now (the app is being hidden, or a navigation). */
	flush(): void {
		this.#write.cancel();
		if (!this.#record) return;
		writeResume(this.#record);
		if (this.#record.anchor) this.#onElsewhere();
	}

	/** Signed out: nothing more is written (sign-out has cleared local storage). */
	stop(): void {
		this.#write.cancel();
		this.#record = undefined;
	}
}

let pending: ResumeRecord | undefined;
/** The article the start went back to because the reader had it open (`takeReopened`). */
let reopened: ResumeRecord | undefined;

/**
 * Called once by the start (hooks.client.ts, before the router's first screen): the path to open
 * instead of `startPath`, and the positions the screens restore there (`takeRestore`).
 */
export function resumeAtStart(startPath: string): string {
	const { path, restore } = startTarget(startPath, readResume());
	pending = restore;
	reopened = restore && PLACE.exec(restore.path)?.[3] !== undefined ? restore : undefined;
	return path;
}

/**
 * Whether opening the article at `path` is the start going back to the article the reader had
 * open (a reload, the app opened again), asked once by the article's first opening: that is not
 * the reader opening it. It was marked read when they did; marking it again would overturn what
 * they did since — "Mark unread" (chaos seeds 2014, 2019 in docs/reliability.md).
 */
export function takeReopened(path: string, account: string | undefined): boolean {
	const taken = reopened;
	reopened = undefined;
	return taken !== undefined && taken.path === path && taken.account === account;
}

/** The start's positions for this place, once; only the signed-in account's. */
export function takeRestore(path: string, account: string | undefined): ResumeRecord | undefined {
	const taken = pending;
	if (!taken || listPathOf(taken.path) !== listPathOf(path)) return undefined;
	pending = undefined;
	return taken.account === account ? taken : undefined;
}

/** The app's one writer; the start snapshot is deleted whenever it no longer shows the place. */
export const resumeWriter = new ResumeWriter(() => void forgetSnapshot());
