import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Headline } from '$lib/api';
import { headline } from '$support/factories';
import { phraseText } from '$lib/search/text';
import { wipeAccount } from '$lib/db/device';
import { parseMuteSettings, splitMuted } from './mute-rules';
import { mute } from './mute.svelte';

// The one tokeniser, watched: how many texts a list's matching reads.
vi.mock('$lib/search/text', async (original) => {
	const text = await original<typeof import('$lib/search/text')>();
	return { ...text, phraseText: vi.fn(text.phraseText) };
});

beforeEach(() => {
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

describe('muted words on long bodies', () => {
	const body = '<p>' + 'lorem ipsum dolor sit amet consectetur '.repeat(2500) + '</p>'; // ~100 KB
	const words = Array.from({ length: 20 }, (_, i) => `word${i}`);
	const settings = { words, content: true, markRead: false };

	it('cost per list render: 50 rows × 100 KB × 20 words under a second even on a loaded machine (was 1.7 s)', () => {
		// Tens of milliseconds here; the next test is the exact proof (each body tokenised once).
		const rows = Array.from({ length: 50 }, (_, i) => ({ ...headline(i + 1), content: body }));
		const start = performance.now();
		splitMuted(rows, settings);
		expect(performance.now() - start).toBeLessThan(1_000);
	});

	it('each body is tokenised once for all the words, and not again while it is the same', () => {
		const rows = Array.from({ length: 50 }, (_, i) => ({ ...headline(1000 + i), content: body }));
		vi.mocked(phraseText).mockClear();
		expect(splitMuted(rows, settings).hidden).toEqual([]);
		// A title and a body per row, whatever the number of words (was 20 per text).
		expect(vi.mocked(phraseText)).toHaveBeenCalledTimes(100);
		vi.mocked(phraseText).mockClear();
		splitMuted([...rows], { ...settings, words: [...words, 'lorem'] });
		expect(vi.mocked(phraseText)).not.toHaveBeenCalled();
		// A changed body is read again (with its title), and matched on its new words.
		expect(splitMuted([{ ...rows[0]!, content: '<p>word3</p>' }], settings).hidden).toHaveLength(1);
		expect(vi.mocked(phraseText)).toHaveBeenCalledTimes(2);
	});
});
