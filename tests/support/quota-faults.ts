/**
 * Test helper (used only by *.spec.ts): a full disk for fake-indexeddb, failing the way Chromium
 * reports a full quota: the puts succeed, then the transaction cannot commit and aborts with
 * QuotaExceededError (everything written in it rolls back; `tx.done` rejects). While
 * `failCommits` is above zero, each transaction that writes (put/add) fails like that. A
 * transaction that only deletes still commits, as in browsers (it frees room).
 */
import { IDBFactory, IDBObjectStore, IDBTransaction } from 'fake-indexeddb';
import { afterEach, beforeEach } from 'vitest';

export const quota = {
	/** How many more writing transactions fail to commit. */
	failCommits: 0,
	/** Transactions that failed so far. */
	failed: 0
};

const DOOMED = Symbol('quota-doomed');

interface FakeTransaction {
	[DOOMED]?: boolean;
	mode: IDBTransactionMode;
	error: DOMException | null;
	_abort: (this: FakeTransaction, name: string | null) => void;
	_markFinished: (this: FakeTransaction) => void;
}

let installed = false;

export function installQuotaFaults(): void {
	if (installed) return;
	installed = true;
	type Write = (this: IDBObjectStore, ...args: unknown[]) => IDBRequest;
	const store = IDBObjectStore.prototype as unknown as Record<'put' | 'add', Write>;
	for (const method of ['put', 'add'] as const) {
		const original = Object.getOwnPropertyDescriptor(store, method)?.value as Write;
		store[method] = function (this: IDBObjectStore, ...args: unknown[]) {
			const tx = this.transaction as unknown as FakeTransaction;
			if (tx.mode === 'readwrite' && !tx[DOOMED] && quota.failCommits > 0) {
				quota.failCommits--;
				quota.failed++;
				tx[DOOMED] = true;
			}
			return original.apply(this, args);
		};
	}
	const tx = IDBTransaction.prototype as unknown as FakeTransaction;
	const abort = Object.getOwnPropertyDescriptor(tx, '_abort')?.value as FakeTransaction['_abort'];
	tx._abort = function (this: FakeTransaction, name: string | null) {
		// Aborted for another reason: nothing left to refuse at commit.
		this[DOOMED] = false;
		abort.call(this, name);
	};
	const markFinished = Object.getOwnPropertyDescriptor(tx, '_markFinished')
		?.value as FakeTransaction['_markFinished'];
	tx._markFinished = function (this: FakeTransaction) {
		if (this[DOOMED] && this.error === null) {
			// Commit time: refuse it. _abort rolls back, fires `abort` and marks the end itself.
			this._abort('QuotaExceededError');
			return;
		}
		markFinished.call(this);
	};
}

/**
 * A spec's full-disk setup: before each test a fresh fake IndexedDB (`forget` drops the cached
 * connections to the last one) and no refusals pending; after each, none left for the next.
 */
export function useQuotaFaults(forget: () => void): void {
	beforeEach(() => {
		globalThis.indexedDB = new IDBFactory();
		forget();
		installQuotaFaults();
		quota.failCommits = 0;
		quota.failed = 0;
	});
	afterEach(() => {
		quota.failCommits = 0;
	});
}
