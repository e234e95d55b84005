import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Headline } from '$lib/api';
import { wipeAccount } from '$lib/db/device';
import { resetReaderDbForTests } from '$lib/db/open';
import { parseMuteSettings, splitMuted } from './match';
import { mute } from './mute.svelte';

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
	mute.reset();
});

const row = (id: number, title: string, content = ''): Headline =>
	({ id, title, content, excerpt: '' }) as unknown as Headline;

describe('muted words', () => {
	const rows = [
		row(1, 'Crypto coins crash'),
		row(2, 'Rust 2.0', '<p>No crypto here</p>'),
		row(3, 'Cryptography basics')
	];

	it('hide whole-word matches in the title, in the list’s order', () => {
		const { shown, hidden } = splitMuted(rows, {
			words: ['crypto'],
			content: false,
			markRead: false
		});
		expect(shown.map((r) => r.id)).toEqual([2, 3]);
		expect(hidden.map((r) => r.id)).toEqual([1]);
	});

	it('with "body too" the article’s text counts, its markup never', () => {
		const { hidden } = splitMuted(rows, { words: ['crypto'], content: true, markRead: false });
		expect(hidden.map((r) => r.id)).toEqual([1, 2]);
		expect(
			splitMuted([row(4, 'x', '<p class="crypto">y</p>')], {
				words: ['crypto'],
				content: true,
				markRead: false
			}).hidden
		).toEqual([]);
	});

	it('no words: every row shown', () => {
		expect(splitMuted(rows, parseMuteSettings(undefined)).shown).toHaveLength(3);
	});

	it('stored values are narrowed', () => {
		expect(parseMuteSettings({ words: ['a', 1, 'A'], content: 'yes', markRead: true })).toEqual({
			words: ['a'],
			content: false,
			markRead: true
		});
	});

	it('kept per account; sign-out wipes them', async () => {
		const account = 'reader@http://tt.example/api/';
		await mute.save(account, { words: ['crypto'], content: false, markRead: true });
		mute.reset();
		await mute.load('second@http://tt.example/api/');
		expect(mute.settings.words).toEqual([]);
		await mute.load(account);
		expect(mute.settings).toEqual({ words: ['crypto'], content: false, markRead: true });
		// Signed out and in again as the same account: the wiped words are not kept in memory.
		await wipeAccount(account);
		await mute.load(account);
		expect(mute.settings.words).toEqual([]);
	});
});
