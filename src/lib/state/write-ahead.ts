/**
 * The reader's change, written ahead of the outbox. The screen takes a change at once; its outbox
 * write (outbox/enqueue.ts `enqueueIntent`, one IndexedDB transaction with the cached articles)
 * commits later, and behind a sync's page write it can wait a while. A reload or a closed tab in
 * between aborts that transaction: the reader saw the change, and it was gone (the chaos runs found
 * it, docs/reliability.md). So before the screen changes, the intent goes into local storage,
 * which a page writes at once; the outbox transaction also marks the entry settled (a key in the
 * `settings` store, written in the same transaction), and then the entry goes.
 *
 * Local storage survives a reload or a closed tab, not a browser killed outright (Chromium commits
 * it in batches, seconds later): each entry is also put in a database of its own
 * (db/journal-db.ts), whose short transaction commits in milliseconds, not behind the cache's.
 *
 * At the next start an entry left behind by a page that is gone is queued again, unless its mark
 * says the outbox already has it: exactly once either way. A page still open (another tab, whose
 * write may still be on its way) holds a Web Lock named after it for its life; its entries are
 * not touched. Where the browser has no Web Locks, an entry older than a minute counts as left.
 * Sign-out clears local storage with everything else (state/sign-out.ts).
 */
import type { Intent } from '$lib/outbox/intent';
import { parseIntent } from '$lib/outbox/intent';
import { JOURNAL_KEY as KEY } from './write-ahead-check';
import { deleteJournalEntries, putJournalEntry, readJournalEntries } from '$lib/db/journal-db';
const LOCK_PREFIX = 'reader-tab:';
/** Without Web Locks: an entry this old belongs to a page that is gone. */
const ORPHAN_AGE = 60_000;

export interface JournalEntry {
	id: string;
	/** The page that wrote it (its Web Lock's name, after the prefix). */
	tab: string;
	/** The account the change was made in, when the page knew it. */
	account?: string;
	intent: Intent;
	/** When the reader made the change (ms). */
	at: number;
}

/** An entry written for one change: `settle` once its outbox write is durable, or refused. */
export interface Ticket {
	readonly id: string;
	readonly at: number;
	/** Settles once the durable copy is written (or could not be). */
	readonly durable: Promise<void>;
	settle(): void;
}

const randomId = (): string =>
	typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
		? crypto.randomUUID()
		: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

let tab: string | undefined;

/** This page's name, held as a Web Lock while it lives (taken at its first change). */
function thisTab(): string {
	if (tab !== undefined) return tab;
	tab = randomId();
	if (typeof navigator !== 'undefined' && navigator.locks) {
		// Held until the page goes: a start elsewhere then knows this page's entries are its own.
		void navigator.locks
			.request(LOCK_PREFIX + tab, () => new Promise<never>(() => {}))
			.catch(() => undefined);
	}
	return tab;
}

/** The entries kept, each a valid one (anything else in the key is dropped as unreadable). */
export function readJournal(): JournalEntry[] {
	let raw: unknown;
	try {
		raw = JSON.parse(localStorage.getItem(KEY) ?? '[]');
	} catch {
		return [];
	}
	return Array.isArray(raw) ? parseEntries(raw as unknown[]) : [];
}

function parseEntries(values: readonly unknown[]): JournalEntry[] {
	const entries: JournalEntry[] = [];
	for (const value of values) {
		const entry = parseEntry(value);
		if (entry) entries.push(entry);
	}
	return entries;
}

/** The entries of both copies, each once: local storage's and the durable one's (db/journal-db.ts). */
export async function readAllEntries(): Promise<JournalEntry[]> {
	const entries = readJournal();
	const ids = new Set(entries.map((e) => e.id));
	for (const entry of parseEntries(await readJournalEntries())) {
		if (!ids.has(entry.id)) entries.push(entry);
	}
	return entries;
}

function parseEntry(value: unknown): JournalEntry | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const { id, tab, account, intent, at } = value as Record<string, unknown>;
	const parsed = parseIntent(intent);
	if (typeof id !== 'string' || typeof tab !== 'string' || !parsed) return undefined;
	if (typeof at !== 'number' || !Number.isFinite(at)) return undefined;
	if (account !== undefined && typeof account !== 'string') return undefined;
	return { id, tab, intent: parsed, at, ...(account === undefined ? {} : { account }) };
}

function writeJournal(entries: JournalEntry[]): void {
	try {
		if (entries.length === 0) localStorage.removeItem(KEY);
		else localStorage.setItem(KEY, JSON.stringify(entries));
	} catch {
		// Storage refused or full: the change still goes to the outbox, as before this journal.
	}
}

/** Removes entries by id (a settled write, or one the next start took over), from both copies. */
export function dropEntries(ids: ReadonlySet<string>): void {
	const entries = readJournal();
	const kept = entries.filter((e) => !ids.has(e.id));
	if (kept.length !== entries.length) writeJournal(kept);
	void deleteJournalEntries([...ids]);
}

/** Writes the change ahead, synchronously: call it before the screen shows the change. */
export function journal(intent: Intent, account: string | undefined, at = Date.now()): Ticket {
	const id = randomId();
	const entry: JournalEntry = { id, tab: thisTab(), intent, at };
	if (account !== undefined) entry.account = account;
	writeJournal([...readJournal(), entry]);
	const durable = putJournalEntry(entry);
	return { id, at, durable, settle: () => dropEntries(new Set([id])) };
}

/**
 * The entries whose page is gone: no page holds their lock (or, without locks, old enough); and
 * the pages still holding a lock that have entries (a reloaded page may hold its lock a moment
 * after the next page starts: wait for that lock, then look again). `gone`: pages whose lock this
 * page holds itself, having waited for it (`whenPageGone`): gone, though their lock shows held.
 * `all`: the journal's entries as read (`readAllEntries`).
 */
export async function leftEntries(
	all: readonly JournalEntry[],
	now = Date.now(),
	gone: ReadonlySet<string> = new Set()
): Promise<{ left: JournalEntry[]; waiting: string[] }> {
	const entries = all.filter((e) => e.tab !== tab);
	if (entries.length === 0) return { left: [], waiting: [] };
	let live: Set<string> | undefined;
	if (typeof navigator !== 'undefined' && navigator.locks) {
		try {
			const { held = [] } = await navigator.locks.query();
			live = new Set(
				held
					.map((lock) => lock.name ?? '')
					.filter((name) => name.startsWith(LOCK_PREFIX))
					.map((name) => name.slice(LOCK_PREFIX.length))
					.filter((name) => !gone.has(name))
			);
		} catch {
			live = undefined;
		}
	}
	if (!live) return { left: entries.filter((e) => now - e.at > ORPHAN_AGE), waiting: [] };
	const alive = live;
	return {
		left: entries.filter((e) => !alive.has(e.tab)),
		waiting: [...new Set(entries.filter((e) => alive.has(e.tab)).map((e) => e.tab))]
	};
}

/** The other pages that have entries in the journal now (this page's own left out). */
export function otherPagesWithEntries(): string[] {
	return [...new Set(readJournal().flatMap((e) => (e.tab === tab ? [] : [e.tab])))];
}

/** Runs `then` once the page named `tab` is gone (its lock free); never, without Web Locks. */
export function whenPageGone(tabName: string, then: () => Promise<void>): void {
	if (typeof navigator === 'undefined' || !navigator.locks) return;
	void navigator.locks.request(LOCK_PREFIX + tabName, then).catch(() => undefined);
}
