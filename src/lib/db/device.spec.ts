import { beforeEach, describe, expect, it } from 'vitest';
import { storeArticles, storeList, storeTree } from '$lib/cache/write';
import { storeOfflineHeadlines } from '$lib/cache/kept';
import { savePosition } from '$lib/media/positions';
import { failedItems, pendingItems } from '$lib/outbox/outbox';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { replayOutbox } from '$lib/outbox/replay';
import { clientFromStoredSession } from '$lib/outbox/session-client';
import { fakeTtrss } from '$support/fake-server';
import { headline } from '$support/factories';
import { accountOf, bindAccount, mayWriteCache, setShownAccount } from './account';
import { changesByAccount, discardChangesNotOf, storeSessionFor, wipeAccount } from './device';
import { openReaderDb } from './open';
import { putJournalEntry, readJournalEntries, resetJournalDbForTests } from './journal-db';
import type { StoredArticle, StoredSession } from './schema';
import { loadSession } from './session';

beforeEach(() => {
	resetJournalDbForTests();
	setShownAccount(undefined);
});

const first: StoredSession = {
	apiUrl: 'http://tt.example/api/',
	user: 'reader',
	sessionId: 'sid-0',
	apiLevel: 15,
	stayingSignedIn: false,
	singleUser: false,
	signedInAt: 1
};
const second: StoredSession = { ...first, user: 'second', sessionId: 'sid-0' };
const otherServer: StoredSession = { ...first, apiUrl: 'http://elsewhere.example/api/' };

function article(id: number): StoredArticle {
	return { ...headline(id), comments: '', hasContent: false, storedAt: 1, offline: false };
}

async function cacheSomething(): Promise<void> {
	const db = await openReaderDb();
	await db.put('articles', article(1));
	await db.put('lists', { key: 'feed:-4', ids: [1], complete: true, fetchedAt: 1 });
}

describe('accountOf', () => {
	it('names server and user; the same endpoint written differently is one account', () => {
		expect(accountOf(first)).toBe('reader@http://tt.example/api/');
		expect(accountOf({ apiUrl: 'http://TT.example/api', user: ' Reader ' })).toBe(accountOf(first));
		expect(accountOf(second)).not.toBe(accountOf(first));
		expect(accountOf(otherServer)).not.toBe(accountOf(first));
		// A user name cannot pass itself off as another server.
		expect(accountOf({ apiUrl: 'http://tt.example/api/', user: 'a@b' })).toBe(
			'a%40b@http://tt.example/api/'
		);
	});
});

describe('the cache belongs to one account', () => {
	it("a sign-in as another user or on another server empties the earlier account's cache", async () => {
		expect(await storeSessionFor(first)).toBe(true);
		await cacheSomething();
		expect(await storeSessionFor({ ...first, sessionId: 'sid-2' })).toBe(false);
		const db = await openReaderDb();
		expect(await db.count('articles')).toBe(1);

		for (const next of [second, otherServer]) {
			expect(await storeSessionFor(next)).toBe(true);
			expect(await db.count('articles')).toBe(0);
			expect(await db.count('lists')).toBe(0);
			expect(await loadSession()).toMatchObject({ user: next.user, apiUrl: next.apiUrl });
			await cacheSomething();
		}
	});

	it("keeps every account's changes stamped, and sends each only with its own session", async () => {
		const server = fakeTtrss();
		await storeSessionFor(first);
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: true });
		await enqueueIntent({ type: 'note', articleId: 2, note: 'mine' });
		await storeSessionFor(second);
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [3], value: false });

		// The second account's session replays: only its own change goes out.
		const result = await replayOutbox({ client: () => clientFromStoredSession(server.fake.fetch) });
		expect(result).toMatchObject({ sent: 1, remaining: 0 });
		expect(server.article(3).unread).toBe(false);
		expect(server.article(1).marked).toBe(false);
		expect(server.article(2).note).toBe('');
		expect((await pendingItems()).map((i) => i.account)).toEqual([
			accountOf(first),
			accountOf(first)
		]);

		// A page client of the first account (bound to it) sends the first account's.
		const firstClient = bindAccount(server.client(), accountOf(first));
		expect(await replayOutbox({ client: firstClient })).toMatchObject({ sent: 2, remaining: 0 });
		expect(server.article(1).marked).toBe(true);
	});

	it("another account's kept changes are never applied to this account's cached articles", async () => {
		await storeSessionFor(first);
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [6], value: true });
		await enqueueIntent({ type: 'note', articleId: 6, note: 'first account note' });
		// The same user on another server: its article 6 is another article.
		await storeSessionFor(otherServer);
		setShownAccount(accountOf(otherServer));
		await storeArticles([{ ...article(6), marked: false, note: undefined }]);
		const db = await openReaderDb();
		const cached = await db.get('articles', 6);
		expect(cached?.marked).toBe(false);
		expect(cached?.note).toBeUndefined();
	});

	it('lists and discards the changes of other accounts, pending and failed', async () => {
		await storeSessionFor(first);
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: true });
		const db = await openReaderDb();
		await db.add('failed', {
			intent: { type: 'note', articleId: 5, note: 'x' },
			key: 'note:5',
			code: 'INCORRECT_USAGE',
			reason: 'refused',
			failedAt: 1,
			attempts: 1,
			account: accountOf(first)
		});
		await storeSessionFor(second);
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [3], value: false });

		const { mine, others } = await changesByAccount(accountOf(second));
		expect(mine.pending).toHaveLength(1);
		expect(others.pending).toHaveLength(1);
		expect(others.failed).toHaveLength(1);

		await discardChangesNotOf(accountOf(second));
		expect(await pendingItems()).toHaveLength(1);
		expect(await failedItems()).toHaveLength(0);
	});

	it("sign-out wipes the account's changes and cache but keeps other accounts' kept changes", async () => {
		await storeSessionFor(first);
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: true });
		await storeSessionFor(second);
		await cacheSomething();
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [3], value: false });

		// A change written ahead (state/write-ahead.ts) whose durable copy a kill left behind.
		const left = { id: 'left', tab: 't', intent: {}, at: 1 };
		await putJournalEntry(left);

		await wipeAccount(accountOf(second));
		const db = await openReaderDb();
		expect(await loadSession()).toBeUndefined();
		expect(await db.count('articles')).toBe(0);
		expect(await readJournalEntries()).toEqual([]);
		expect((await pendingItems()).map((i) => i.account)).toEqual([accountOf(first)]);
		// The next sign-in, of whichever account, starts from an empty cache.
		expect(await storeSessionFor(first)).toBe(true);
	});

	it('a tab still open for the earlier account neither fills the new cache nor stamps its changes', async () => {
		await storeSessionFor(first);
		setShownAccount(accountOf(first)); // this tab's session
		// Another tab signs in as the second account.
		await storeSessionFor(second);

		// What this tab fetched a moment later does not land in the second account's cache.
		await storeList(
			{ feedId: -4, isCat: false, viewMode: 'all_articles', orderBy: '', search: '' },
			0,
			[headline(1)],
			true
		);
		await storeArticles([{ ...article(2) }]);
		await storeTree(
			{ categories: [], special: [], labels: [], feeds: [], source: 'getFeedTree' },
			undefined
		);
		const db = await openReaderDb();
		expect(await db.count('lists')).toBe(0);
		expect(await db.count('articles')).toBe(0);
		expect(await db.count('tree')).toBe(0);

		// A change the reader makes there is the first account's, never sent as the second's.
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: true });
		expect((await pendingItems()).map((i) => i.account)).toEqual([accountOf(first)]);
	});
});

describe('a signed-out device', () => {
	it('holds none of the account it signed out, even what was in flight for it', async () => {
		const account = accountOf(first);
		await storeSessionFor(first);
		setShownAccount(account);
		// session.signOut(): the shown account cleared, then the wipe.
		setShownAccount(undefined);
		await wipeAccount(account);
		// A sync, a list page and a player save that were already on their way for it now finish.
		await storeOfflineHeadlines([{ ...headline(7), title: 'Private title' }], { account });
		await storeList(
			{ feedId: 1, isCat: false, viewMode: 'adaptive', orderBy: '', search: '' },
			0,
			[{ ...headline(8), title: 'Another private title' }],
			true
		);
		await savePosition('https://podcasts.example/episode.mp3', {
			position: 42,
			duration: 100,
			finished: false
		});
		const db = await openReaderDb();
		const left = {
			articles: (await db.getAll('articles')).map((r) => r.title),
			lists: await db.count('lists'),
			media: await db.getAllKeys('media'),
			settings: await db.getAllKeys('settings')
		};
		expect(left).toEqual({ articles: [], lists: 0, media: [], settings: [] });
	});

	it('a write needs an owner equal to the account it was fetched for', () => {
		const a = accountOf(first);
		const b = accountOf(second);
		// The worker shows no account: a write names its own.
		expect(mayWriteCache(a, a)).toBe(true);
		expect(mayWriteCache(undefined, a)).toBe(false);
		expect(mayWriteCache(b, a)).toBe(false);
		expect(mayWriteCache(a, undefined)).toBe(false);
		// A page writes for the account it shows, and only that one.
		setShownAccount(a);
		expect(mayWriteCache(a)).toBe(true);
		expect(mayWriteCache(undefined)).toBe(false);
		expect(mayWriteCache(a, b)).toBe(false);
	});
});
