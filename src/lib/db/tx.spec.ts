import { describe, expect, it } from 'vitest';
import { quota, useQuotaFaults } from '$support/quota-faults';
import { openReaderDb, resetReaderDbForTests } from './open';
import { writeTxWithRoom } from './quota';
import { StorageFullError } from './storage-problem';
import { readTx, writeTx } from './tx';

useQuotaFaults(resetReaderDbForTests);

describe('the transaction helpers', () => {
	it('writeTx lands nothing of a write that throws, and hands its error on', async () => {
		const db = await openReaderDb();
		const failing = writeTx(db, ['settings'], async (tx) => {
			await tx.store.put('written', 'probe');
			throw new Error('half way');
		});
		await expect(failing).rejects.toThrow('half way');
		expect(await db.get('settings', 'probe')).toBeUndefined();
	});

	it('writeTxWithRoom runs the write again after a full quota, in a new transaction', async () => {
		const db = await openReaderDb();
		quota.failCommits = 1;
		let runs = 0;
		const result = await writeTxWithRoom(db, ['settings'], async (tx) => {
			runs++;
			await tx.store.put(`run ${runs}`, 'probe');
			return runs;
		});
		expect(quota.failed).toBe(1);
		expect(result).toBe(2);
		expect(await db.get('settings', 'probe')).toBe('run 2');
	});

	it('writeTxWithRoom gives up with StorageFullError when the retry is refused too', async () => {
		const db = await openReaderDb();
		quota.failCommits = 2;
		const failing = writeTxWithRoom(db, ['settings'], async (tx) => {
			await tx.store.put('never', 'probe');
		});
		await expect(failing).rejects.toBeInstanceOf(StorageFullError);
		expect(await db.get('settings', 'probe')).toBeUndefined();
	});

	it('readTx resolves with what its read returns', async () => {
		const db = await openReaderDb();
		await db.put('settings', 'kept', 'probe');
		const read = await readTx(db, ['settings'], (tx) => tx.store.get('probe'));
		expect(read).toBe('kept');
	});
});
