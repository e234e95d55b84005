import type { DBSchema } from 'idb';
import type { Counters, FeedTree, Headline } from '$lib/api';
import type { Intent } from './stored-intent';
import type { ExtractedArticle } from '$lib/content/extract';

/** Who is signed in where. The password is kept only when the reader chose "stay signed in". */
export interface StoredSession {
	/** The API endpoint, e.g. `/tt-rss/api/` (same origin) or a full URL. */
	apiUrl: string;
	user: string;
	sessionId: string;
	apiLevel: number;
	/** Only known (and only needed) for servers below API level 5. */
	version?: string;
	/** Only with "stay signed in": lets the app and the service worker log in again by themselves. */
	password?: string;
	stayingSignedIn: boolean;
	singleUser: boolean;
	signedInAt: number;
	/**
	 * Names this sign-in (random, new at each sign-in): a client made for it never logs in with
	 * a later sign-in's password, nor after a sign-out (db/session.ts `sameSignIn`).
	 */
	signInId?: string;
	/**
	 * Whether tt-rss's Reader plugin signs this account's images (its replies carry
	 * `reader_images`): learned from replies (TtrssClient `imageProxy`); absent until one said.
	 * While true, no image is loaded from a feed's host (content/url.ts `imageUrl`).
	 */
	imageProxy?: boolean;
}

/** A password sealed with the device's non-extractable AES-GCM key (see db/secret.ts). */
export interface SealedSecret {
	iv: Uint8Array<ArrayBuffer>;
	data: ArrayBuffer;
}

/**
 * The session as stored: the password, when kept, is sealed (`sealedPassword`). `password` in
 * clear text is only found in records written before v3 (or where WebCrypto is missing: an
 * insecure context), and is sealed on the next read.
 */
export interface SessionRecord extends Omit<StoredSession, 'password'> {
	sealedPassword?: SealedSecret;
	password?: string;
}

/** The feed tree with its counters, as last fetched (one record, key `current`). */
export interface StoredTree {
	tree: FeedTree;
	counters: Counters | undefined;
	fetchedAt: number;
}

/** One headline list (feed or category, view mode, order, search): ids only, the rows live in `articles`. */
export interface StoredList {
	key: string;
	ids: number[];
	complete: boolean;
	fetchedAt: number;
}

/**
 * A headline or article as last seen, with the reader's pending changes already applied.
 * Headline-only fields are filled with neutral values when only getArticle was seen.
 */
export interface StoredArticle extends Headline {
	/** getArticle's `comments` (empty when only the headline was seen). */
	comments: string;
	/** True when `content` is the full body (getArticle, or getHeadlines with show_content). */
	hasContent: boolean;
	/** When the record was last written from the server: eviction removes the oldest first. */
	storedAt: number;
	/** Downloaded by "make available offline". */
	offline: boolean;
	/**
	 * The offline packs (sync/) that hold this article, by pack id: set by the sync engine, read
	 * by eviction (an article in a pack is kept before read ones). Absent: in no pack.
	 */
	packs?: string[];
	/**
	 * When the reader last changed it on this device (outbox/intent-effect.ts marks it as the change goes
	 * in; kept over the server's copies): a rule never acts on it (`changedByReader`).
	 */
	readerChangedAt?: number;
	/**
	 * The article's full text, kept by the sync for a feed set to "Always show full text" (issue
	 * 59; sync/full-text-step.ts): in the article's own record, so it counts in the storage budget
	 * with it (offline/budget.ts `articleBytes`), is evicted with it and wiped with the account.
	 */
	fullText?: KeptFullText;
}

/** An extraction kept for offline reading (content/extract.ts ExtractedArticle, and when). */
export interface KeptFullText extends ExtractedArticle {
	keptAt: number;
}

/**
 * One queued change. `key` names what it changes (`flag:unread:42`, `label:42:-1026`, `note:42`);
 * a newer intent for the same key replaces the older one (the last wins). Catch-ups and shares get
 * a unique key and stay in order: catch-ups are barriers that replay never reorders around.
 */
export interface OutboxItem {
	seq?: number;
	key: string;
	/** An intent for exactly one article (flags, notes, labels) or a catch-up/share. */
	intent: Intent;
	/** The article this item changes, when it changes one (index `byArticle`). */
	articleId?: number;
	createdAt: number;
	/** Failed attempts with a server error that may pass (E_OPERATION_FAILED, …). */
	attempts: number;
	/** Not before this time (ms) after such a failure. */
	notBefore?: number;
	/**
	 * When it was last sent without an answer (ms): it may have reached the server. Set before a
	 * share is sent (repeating one publishes it twice: it is looked for before resending) and a
	 * catch-up (one retried later is bounded by what the reader saw, see outbox/replay.ts); set
	 * after a change of an article (flag, note, label) is sent and not answered.
	 */
	attemptedAt?: number;
	/**
	 * It replaced a change of the same article and field that was sent without an answer at this
	 * time (ms): that request may still reach the server after this one and undo it. This one
	 * leaves the outbox only when confirmed for a send made a request's timeout after that time;
	 * confirmed earlier, it is sent once more then (outbox/replay.ts `confirm`).
	 */
	overtakes?: number;
	/**
	 * A change of an article (flag, note, label) being sent since this time (ms): noted before the
	 * request goes and removed once it ended. Still there when the sender died on the way (the
	 * worker stopped, the tab closed): that request may still reach the server, so a change that
	 * replaces this one carries the time as `overtakes` (outbox/intent-effect.ts).
	 */
	sendingAt?: number;
	/** v3: the account it was made in (db/account.ts `accountOf`); only that account sends it. */
	account?: string;
	/**
	 * Held while the reader can still undo it (outbox/hold.ts): not sent before this time (ms).
	 * Not a back-off (`notBefore`): an expired hold is simply sendable, by the page or the worker.
	 */
	heldUntil?: number;
	/** The undoable action it belongs to (one id for all its items). */
	undoId?: string;
	/** What undoing it puts back (outbox/hold.ts); dropped when the hold is released. */
	undo?: HoldUndo;
	/**
	 * A star, publish or label change: whether the cached article had it before (absent when it
	 * was not cached). Tells what a catch-up queued before it saw (outbox/apply.ts `asBefore`).
	 */
	was?: boolean;
}

/** Which cached counter list a held catch-up moved (outbox/hold.ts). */
export type CounterList = 'feeds' | 'special' | 'labels' | 'categories';

/** One cached counter's value before a catch-up moved it (`global`: the total, id 0). */
export interface CounterValue {
	list: CounterList | 'global';
	id: number;
	unread: number;
}

/** What cancelling a held item puts back (outbox/hold.ts `cancelHold`). */
export interface HoldUndo {
	/** Older queued changes of the same key it replaced: they return with their own `seq`. */
	replaced: OutboxItem[];
	/** The intent that puts its cached article back (flags, labels, notes). */
	inverse?: Intent;
	/** A catch-up: the cached articles it marked read. */
	markedRead?: number[];
	/** A catch-up: the cached counters it zeroed, as they were just before. */
	counters?: CounterValue[];
}

/** An intent the server refused for good: shown to the reader, who retries or discards it. */
export interface FailedItem {
	id?: number;
	intent: Intent;
	key: string;
	articleId?: number;
	code: string;
	reason: string;
	failedAt: number;
	attempts: number;
	/** v3: the account it was made in. */
	account?: string;
}

export interface ReaderDB extends DBSchema {
	/** Small key-value settings that the service worker needs too. */
	settings: { key: string; value: unknown };
	/** One record, key `current`. */
	session: { key: 'current'; value: SessionRecord };
	/** v2: key `current`. */
	tree: { key: 'current'; value: StoredTree };
	/** v2: key = listKeyString(ListKey). */
	lists: { key: string; value: StoredList };
	/** v2: by article id. */
	articles: {
		key: number;
		value: StoredArticle;
		indexes: { byStoredAt: number; byFeed: number; byUpdated: number };
	};
	/** v2: queued changes, oldest first (autoincrement `seq`). */
	outbox: {
		key: number;
		value: OutboxItem;
		indexes: { byKey: string; byArticle: number };
	};
	/** v2: refused changes with the reason. */
	failed: { key: number; value: FailedItem };
	/** v4: the offline search index (search/), in records its owner module defines. */
	search: { key: string; value: unknown };
	/** v4: the sync engine's bookkeeping (sync/): last sync, newest ids seen, packs. */
	sync: { key: string; value: unknown };
	/** v4: what the reader did with an enclosure (position, speed), by enclosure URL. */
	media: { key: string; value: unknown };
}

export const DB_NAME = 'ttrss-reader';
