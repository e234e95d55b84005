import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '$support/memory-storage';
import type { Intent } from '$lib/outbox/intent';

const STAR: Intent = { type: 'flag', field: 'starred', articleIds: [7], value: true };
const ACCOUNT = 'reader@http://localhost/tt-rss/api/';

/** A page's modules, fresh (its tab name and lock are its own). */
async function page() {
	vi.resetModules();
	const ahead = await import('./write-ahead');
	const check = await import('./write-ahead-check');
	const recover = await import('./write-ahead-recover');
	const outbox = await import('$lib/outbox/outbox');
	const enqueue = await import('$lib/outbox/enqueue');
	return { ...ahead, ...check, ...recover, ...outbox, ...enqueue };
}

beforeEach(() => {
	vi.stubGlobal('localStorage', new MemoryStorage());
	// No Web Locks in Node: an entry counts as left once a minute old.
	vi.stubGlobal('indexedDB', new IDBFactory());
});

afterEach(() => {
	vi.unstubAllGlobals();
	vi.useRealTimers();
});

describe('the write-ahead journal', () => {
	it('keeps an entry until its outbox write is durable, then drops it', async () => {
		const { journal, readJournal } = await page();
		const ticket = journal(STAR, ACCOUNT, 1_000);
		const [entry, ...rest] = readJournal();
		expect(rest).toEqual([]);
		expect(entry).toEqual({
			id: ticket.id,
			tab: entry?.tab,
			account: ACCOUNT,
			intent: STAR,
			at: 1_000
		});
		expect(typeof entry?.tab).toBe('string');
		ticket.settle();
		expect(readJournal()).toEqual([]);
		expect(localStorage.getItem('reader.journal')).toBeNull();
	});

	it('reads past garbage: a broken key, entries of the wrong shape, unknown intents', async () => {
		const { readJournal, journalHasEntries } = await page();
		localStorage.setItem('reader.journal', '<html>');
		expect(journalHasEntries()).toBe(true);
		expect(readJournal()).toEqual([]);
		const good = { id: 'a', tab: 't', intent: STAR, at: 5 };
		localStorage.setItem(
			'reader.journal',
			JSON.stringify([
				null,
				7,
				{ ...good, id: 3 },
				{ ...good, at: 'now' },
				{ ...good, intent: { type: 'flag', field: 'loved', articleIds: [1], value: true } },
				{ ...good, intent: { type: 'flag', field: 'starred', articleIds: ['1'], value: true } },
				{ ...good, intent: { type: 'catchup', feedId: 1, isCat: false, mode: 'forever' } },
				{ ...good, intent: { type: 'launch' } },
				{ ...good, account: 42 },
				good
			])
		);
		expect(readJournal()).toEqual([good]);
	});

	it('a start queues a change whose page went before the outbox had it, exactly once', async () => {
		const first = await page();
		first.journal(STAR, ACCOUNT, Date.now() - 120_000);
		// The page is gone (reloaded) before its outbox write began.
		const next = await page();
		expect(await next.recoverLeftChanges()).toBe(1);
		const items = await next.pendingItems();
		expect(items.map((i) => [i.intent, i.account])).toEqual([[STAR, ACCOUNT]]);
		expect(next.readJournal()).toEqual([]);
		// A second start finds nothing to do.
		expect(await (await page()).recoverLeftChanges()).toBe(0);
		expect(await next.pendingItems()).toHaveLength(1);
	});

	it('a browser killed outright: the durable copy keeps what local storage lost, queued once', async () => {
		const first = await page();
		const ticket = first.journal(STAR, ACCOUNT, Date.now() - 120_000);
		await ticket.durable;
		// Killed before local storage was committed (Chromium batches it): only the database has it.
		localStorage.removeItem('reader.journal');
		const next = await page();
		expect(await next.recoverLeftChanges()).toBe(1);
		expect((await next.pendingItems()).map((i) => i.intent)).toEqual([STAR]);
		expect(await next.readAllEntries()).toEqual([]);
		expect(await (await page()).recoverLeftChanges()).toBe(0);
		expect(await next.pendingItems()).toHaveLength(1);
	});

	it('a settled change leaves nothing in either copy', async () => {
		const { journal, readAllEntries } = await page();
		const ticket = journal(STAR, ACCOUNT);
		await ticket.durable;
		expect(await readAllEntries()).toHaveLength(1);
		ticket.settle();
		expect(await readAllEntries()).toEqual([]);
	});

	it('a start drops an entry whose outbox write committed (the page went before dropping it)', async () => {
		const first = await page();
		const ticket = first.journal(STAR, ACCOUNT, Date.now() - 120_000);
		await first.enqueueIntent(STAR, ticket.at, undefined, { journal: ticket.id });
		// No settle(): the page went between the commit and the entry's removal.
		const next = await page();
		expect(await next.recoverLeftChanges()).toBe(0);
		expect(next.readJournal()).toEqual([]);
		expect(await next.pendingItems()).toHaveLength(1);
	});

	it('leaves a live page’s entry alone (without Web Locks: one younger than a minute)', async () => {
		const first = await page();
		first.journal(STAR, ACCOUNT);
		const next = await page();
		expect(await next.recoverLeftChanges()).toBe(0);
		expect(next.readJournal()).toHaveLength(1);
		expect(await next.pendingItems()).toEqual([]);
	});

	it('a change submitted through the page’s door leaves no entry and no mark behind', async () => {
		const { readJournal, pendingItems, settledEntries } = await page();
		const door = await import('./submit');
		const ticket = door.writeAhead(STAR);
		const [entry] = readJournal();
		expect(entry?.id).toBe(ticket.id);
		await door.submitIntent(STAR, undefined, ticket);
		expect(readJournal()).toEqual([]);
		expect(await pendingItems()).toHaveLength(1);
		// The mark stays a while (a page that wrote after a start read the journal finds it).
		expect([...(await settledEntries([ticket.id]))]).toEqual([ticket.id]);
	});
	it('a start tidies the settled marks of dropped entries once ten minutes old', async () => {
		const { pendingItems, settledEntries, tidySettledMarks } = await page();
		const door = await import('./submit');
		const ticket = door.writeAhead(STAR);
		await door.submitIntent(STAR, undefined, ticket);
		expect(await pendingItems()).toHaveLength(1);
		await tidySettledMarks();
		expect([...(await settledEntries([ticket.id]))]).toEqual([ticket.id]);
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(Date.now() + 11 * 60_000);
		await tidySettledMarks();
		expect([...(await settledEntries([ticket.id]))]).toEqual([]);
	});
});
