import { beforeEach, describe, expect, it } from 'vitest';
import { setShownAccount } from '$lib/db/account';
import { CACHE_OWNER } from '$lib/db/keys';
import { putStored } from '$lib/db/kv';
import { openReaderDb, resetReaderDbForTests } from '$lib/db/open';
import { ownCacheForTests } from '$support/own-cache';
import { loadPosition, parseMediaPosition, resumeAt, savePosition } from './positions';

const URL_A = 'http://feeds.test/media/tone.wav';

beforeEach(() => {
	setShownAccount(undefined);
});

describe('enclosure positions', () => {
	it('keeps a position per URL across a new connection (a reload)', async () => {
		await ownCacheForTests();
		await savePosition(URL_A, { position: 12.5, duration: 60, finished: false });
		resetReaderDbForTests();
		const saved = await loadPosition(URL_A);
		expect(saved).toMatchObject({ position: 12.5, duration: 60, finished: false });
		expect(await loadPosition('http://feeds.test/media/other.wav')).toBeUndefined();
	});

	it('resumes where it was left, from the start once finished or when past the end', () => {
		const saved = { position: 30, duration: 60, finished: false, savedAt: 1 };
		expect(resumeAt(saved, 60)).toBe(30);
		expect(resumeAt({ ...saved, finished: true }, 60)).toBe(0);
		expect(resumeAt(saved, 20)).toBe(0);
		expect(resumeAt(saved, Number.NaN)).toBe(30);
		expect(resumeAt(undefined, 60)).toBe(0);
	});

	it('reads only well-formed records', () => {
		expect(parseMediaPosition('kept')).toBeUndefined();
		expect(parseMediaPosition({ position: -1 })).toBeUndefined();
		expect(parseMediaPosition({ position: 'x' })).toBeUndefined();
		expect(parseMediaPosition({ position: 3, duration: 'long', finished: 'yes' })).toEqual({
			position: 3,
			duration: undefined,
			finished: false,
			savedAt: 0
		});
	});

	it("never writes into another account's cache (a tab left open after a switch)", async () => {
		const db = await openReaderDb();
		await putStored(CACHE_OWNER, 'second@http://localhost/tt-rss/api/', db);
		setShownAccount('reader@http://localhost/tt-rss/api/');
		await savePosition(URL_A, { position: 5, duration: 10, finished: false });
		expect(await db.get('media', URL_A)).toBeUndefined();
		setShownAccount('second@http://localhost/tt-rss/api/');
		await savePosition(URL_A, { position: 5, duration: 10, finished: false });
		expect(await loadPosition(URL_A)).toMatchObject({ position: 5 });
	});
});
