/**
 * What the reader does to articles and feeds. Each action makes its intent and each article's
 * patch, and hands both to the page's door (state/submit.ts `submitChange`), which changes what
 * the reader sees first (rows, the open article, counters), then queues the intent in the outbox;
 * if that throws, the change is undone and the reason shown. Counters are read again from the server (one
 * getCounters call) once the outbox has sent the change, so they never drift from tt-rss.
 *
 * Undoable actions (`{ undo: text }`: catch-ups, mark above/below, swipes, bulk actions) are held
 * in the outbox while an Undo toast shows (state/undo.svelte.ts); Undo puts back the rows, the
 * open article and the counters, except what the reader changed since.
 */
import { isDeviceFeed, type CatchupMode, type FeedId, type Label } from '$lib/api';
import { cachedTree } from '$lib/cache/cache-reads';
import { zeroesCounters } from '$lib/counters/counts';
import { m, whenAllMessages } from '$lib/i18n/m';
import { articleChange, withinCatchup, type ArticleIntent } from '$lib/outbox/effect';
import type { ArticleFlag, ArticleRef, Intent, Side } from '$lib/outbox/intent';
import { unreadNotListed } from '$lib/outbox/unread-not-listed';
import { failureText, submitChange, submitIntent } from './submit';
import { searchTarget } from '$lib/search/scope';
import { refreshCountersWhenSent } from './counter-sync';
import { shownRows } from './shown-rows.svelte';
import { feedIdOf, headlines } from './headlines.svelte';
import type { ArticleChangeOf } from './screen-patch';
import { toasts } from './toasts.svelte';
import { treeState } from './tree.svelte';

/** An action the reader can take back: the Undo toast's text (e.g. "Marked 12 articles read."). */
export interface UndoOptions {
	undo?: string;
}

export type { ArticleRef, Side } from '$lib/outbox/intent';

type CatchupIntent = Extract<Intent, { type: 'catchup' }>;

const FLAG_PROP = { unread: 'unread', starred: 'marked', published: 'published' } as const;

/** The patch the intent makes to each article it names (the rule the cache applies too). */
function changesOf(
	intent: ArticleIntent,
	refs: readonly ArticleRef[],
	label?: Label
): ArticleChangeOf[] {
	return refs.flatMap((ref) => {
		const patch = articleChange(intent, ref, () => label);
		return patch ? [{ ref, patch }] : [];
	});
}

/** Sets read/starred/published to an absolute value on each article that differs. */
export async function setFlag(
	refs: readonly ArticleRef[],
	field: ArticleFlag,
	value: boolean,
	options: UndoOptions = {}
): Promise<boolean> {
	const prop = FLAG_PROP[field];
	// Read or unread, a story shown once (state/shown-rows.svelte.ts) changes with its copies.
	const all = field === 'unread' ? shownRows.withCopies(refs) : refs;
	const targets = all.filter((r) => r[prop] !== value);
	const intent: Intent = { type: 'flag', field, articleIds: targets.map((r) => r.id), value };
	return submitChange(changesOf(intent, targets), intent, options.undo);
}

/** Adds or removes a label on each article that differs (bulk actions pass `undo`). */
export async function setLabels(
	refs: readonly ArticleRef[],
	label: Label,
	assign: boolean,
	options: UndoOptions = {}
): Promise<boolean> {
	const targets = refs.filter((r) => r.labels.some((l) => l.id === label.id) !== assign);
	const intent: Intent = {
		type: 'label',
		articleIds: targets.map((r) => r.id),
		labelId: label.id,
		assign
	};
	return submitChange(changesOf(intent, targets, label), intent, options.undo);
}

/**
 * The Undo toasts' words are the later module's (`toast_`, loaded once the first screen is up):
 * waits for it only while it is not in, so a loaded app reads the list in the same task as before.
 */
async function toastWords(): Promise<void> {
	const loading = whenAllMessages();
	if (loading) await loading;
}

/** Which side of an article "mark above / below as read" covers. */

/**
 * The unread rows before (`above`) or after (`below`) an article in the list as shown and
 * loaded: exactly the ones "mark above / below as read" names (never widened to a catch-up).
 */
export function unreadBeside<T extends ArticleRef>(
	rows: readonly T[],
	articleId: number,
	side: Side
): T[] {
	const index = rows.findIndex((r) => r.id === articleId);
	if (index === -1) return [];
	return (side === 'above' ? rows.slice(0, index) : rows.slice(index + 1)).filter((r) => r.unread);
}

/**
 * Marks read the unread rows the list shows above or below an article (and their copies, through
 * setFlag): one flag intent, those ids.
 */
export async function markBesideRead(articleId: number, side: Side): Promise<boolean> {
	// The rows as the reader saw them at the tap: a row the list gains while the toast's words
	// load is not theirs to mark (Firefox chaos seed 5300006: a row arrived meanwhile, marked read).
	const refs = unreadBeside(shownRows.rows, articleId, side);
	await toastWords();
	const count = refs.length;
	const undo = side === 'above' ? m.toast_marked_above({ count }) : m.toast_marked_below({ count });
	return setFlag(refs, 'unread', false, { undo });
}

export async function setNote(ref: ArticleRef, note: string): Promise<boolean> {
	const intent: Intent = { type: 'note', articleId: ref.id, note: note.trim() };
	return submitChange(changesOf(intent, [ref]), intent);
}

export async function setLabel(ref: ArticleRef, label: Label, assign: boolean): Promise<boolean> {
	return setLabels([ref], label, assign);
}

/**
 * "Mark as read" for a feed or category: the loaded rows it covers, then the server. The intent
 * records what the reader could see (the highest loaded id, the time, the list's search and its
 * loaded matches), so the server gets exactly that however late it is sent (outbox/replay.ts);
 * the rows use the same rule (withinCatchup) as the cache and the replay. Undoable: `described`
 * is the Undo toast's text (by default "Marked as read.").
 */
export async function catchUp(
	kind: 'feed' | 'cat' | 'tag',
	feedId: FeedId,
	mode: CatchupMode,
	described?: string
): Promise<boolean> {
	// Everything the catch-up covers is read at the tap, before anything is awaited: rows the
	// list gains meanwhile are not the reader's (as markBesideRead).
	const query = headlines.query;
	const sameList = query && query.kind === kind && query.id === String(feedId);
	const rows = sameList ? headlines.items : [];
	const readSince = headlines.readSince;
	// A feed only this device has (Today): the server knows no such feed, so its rows as listed are
	// marked read by id, one flag intent like any other.
	if (kind === 'feed' && isDeviceFeed(feedId)) {
		const scope = { type: 'catchup', feedId, isCat: false, mode, at: Date.now() } as const;
		const unread = rows.filter((h) => h.unread && (mode === 'all' || withinCatchup(scope, h)));
		await toastWords();
		return setFlag(unread, 'unread', false, { undo: described ?? m.toast_marked_read() });
	}
	const search = sameList && query.search ? query.search : undefined;
	// A search covers the list it looked through (its category, All articles): the same target
	// as the one asked (search/scope.ts), so the server marks what the reader saw.
	const target = search && query ? searchTarget(query, treeState.tree) : undefined;
	const intent: CatchupIntent = {
		type: 'catchup',
		feedId: target ? feedIdOf(target) : feedId,
		isCat: target ? target.kind === 'cat' : kind === 'cat',
		mode,
		at: Date.now(),
		...(typeof navigator !== 'undefined' && navigator.onLine === false ? { offline: true } : {}),
		...(rows.length > 0 ? { maxId: rows.reduce((max, h) => Math.max(max, h.id), 0) } : {}),
		...(!search && typeof feedId === 'number'
			? { unreadSeen: treeState.unread(feedId, kind === 'cat') }
			: {}),
		...(search && query ? { search, searchMode: 'this_feed', seenIds: rows.map((h) => h.id) } : {})
	};
	// What the reader marked unread that their list was read too early to show stays unread.
	if (sameList) {
		const spare = await unreadNotListed(intent, new Set(rows.map((h) => h.id)), readSince);
		if (spare.length > 0) intent.spare = spare;
	}
	const refs = rows.filter((h) => h.unread && withinCatchup(intent, h));
	const clears = zeroesCounters(intent);
	await toastWords();
	const description = described ?? m.toast_marked_read();
	const ok = await submitChange(
		refs.map((ref) => ({ ref, patch: { unread: false } })),
		intent,
		description,
		// The feed's counter was zeroed: the cache has it as it was (outbox/hold.ts put it back).
		async () => {
			const cached = clears ? await cachedTree().catch(() => undefined) : undefined;
			if (cached?.counters) await treeState.applyCounters(cached.counters, treeState.changeMark());
		}
	);
	// With a search only the matches were marked: the feed's counter stays as the server says.
	if (ok && clears) treeState.caughtUp(intent);
	return ok;
}

export async function shareToPublished(
	title: string,
	url: string,
	content: string
): Promise<boolean> {
	try {
		await submitIntent({ type: 'share', title, url, content });
	} catch (error) {
		toasts.show(failureText(error), 'error');
		return false;
	}
	refreshCountersWhenSent();
	return true;
}
