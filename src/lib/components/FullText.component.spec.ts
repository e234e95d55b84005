/**
 * Full text in the article (issue 59): the article bar's button, the text shown in place of the
 * feed's with a way back, and the words when there is none. The page comes from the plugin's
 * signed address (fetch stubbed with the plugin's answer over a real page of the 24). jsdom has no
 * Worker: a stand-in runs the worker's own job (full-text-job.ts runFullText) on its messages, so
 * the real fetch boundary and Readability run, only not in a thread of their own (the e2e runs the
 * real worker).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FullTextRequest } from '$lib/content/full-text-error';
import { runFullText } from '$lib/content/full-text-job';
import type { TtrssClient } from '$lib/api';
import { m } from '$lib/i18n/m';
import { offlineStatus } from '$lib/offline/offline-status.svelte';
import { fullText } from '$lib/state/full-text.svelte';
import { session } from '$lib/state/session.svelte';
import ArticleReading from './ArticleReading.svelte';
import ArticleToolbar from './ArticleToolbar.svelte';
import { freshTarget, openArticle, show } from '$support/mounted';

const PAGE_URL = `${location.origin}/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=page&uid=2&url=u&sig=ab`;
const RTL = readFileSync(
	join(import.meta.dirname, '../../../testbed/fixtures/fulltext/rtl-1/source.html'),
	'utf8'
);
const track = { title: 't', artist: 'a', artwork: undefined };

/** The full-text worker as jsdom can have it: the worker's job, answered as a message. */
class InThreadWorker {
	onmessage: ((event: { data: unknown }) => void) | null = null;
	onerror: (() => void) | null = null;
	postMessage(data: FullTextRequest | { cancel: number }): void {
		if ('cancel' in data) return;
		void runFullText(data).then((answer) => this.onmessage?.({ data: answer }));
	}
	terminate(): void {}
}

let target: HTMLElement;
beforeEach(() => {
	vi.stubGlobal('Worker', InThreadWorker);
	target = freshTarget();
	fullText.reset();
});
afterEach(() => {
	vi.unstubAllGlobals();
	vi.restoreAllMocks();
});

function mount(patch: Parameters<typeof openArticle>[1]) {
	const article = openArticle(41, { content: '<p>Only a teaser.</p>', ...patch });
	show(ArticleToolbar, target, { article, track, bodyText: () => '', onNote: () => undefined });
	show(ArticleReading, target, {
		article,
		link: article.link,
		track,
		onnext: undefined,
		onprevious: undefined,
		opensImages: () => undefined
	});
	return article;
}

function button(): HTMLButtonElement {
	const found = target.querySelector<HTMLButtonElement>('button.full-text');
	if (!found) throw new Error('no Full text button');
	return found;
}

async function settled(): Promise<void> {
	// The kept copy's read and the extraction take their time on a loaded machine: not a timing.
	await vi.waitFor(
		() => {
			flushSync();
			expect(target.querySelector('[data-status="loading"]')).toBeNull();
		},
		{ timeout: 15_000 }
	);
}

describe('Full text', () => {
	it('shows the page’s article in place of the teaser, and goes back', async () => {
		vi.stubGlobal(
			'fetch',
			vi.fn(() =>
				Promise.resolve(
					new Response(JSON.stringify({ url: 'http://feeds.test/rtl.html', html: RTL, images: [] }))
				)
			)
		);
		mount({ pageUrl: PAGE_URL, signedImages: {} });
		expect(button().getAttribute('aria-label')).toBe('Full text');
		expect(button().getAttribute('aria-pressed')).toBe('false');
		button().click();
		await settled();
		expect(button().getAttribute('aria-pressed')).toBe('true');
		const notice = target.querySelector('.full-text-notice');
		expect(notice?.textContent).toMatch(/Full text from feeds\.test · 1 min read/);
		const shown = target.querySelector('.full-text-body');
		expect(shown?.getAttribute('dir')).toBe('rtl');
		await vi.waitFor(() => expect(shown?.textContent).toMatch(/Lorem ipsum/), { timeout: 15_000 });
		expect(target.textContent).not.toContain('Only a teaser.');

		// The way back: the feed's text again, the full text kept for the next tap.
		const back = [...target.querySelectorAll('button')].find(
			(b) => b.textContent === 'Show the feed’s text'
		);
		back?.click();
		flushSync();
		expect(button().getAttribute('aria-pressed')).toBe('false');
		await vi.waitFor(() => expect(target.textContent).toContain('Only a teaser.'), {
			timeout: 15_000
		});
		expect(target.querySelector('.full-text-body')).toBeNull();
		button().click();
		flushSync();
		expect(target.querySelector('.full-text-body')).not.toBeNull();
		expect(fetch).toHaveBeenCalledTimes(1);
	});

	it('takes the page address from the server’s copy where the row came without it', async () => {
		// The current tt-rss signs `reader_page` only on rows sent with their body; getArticle
		// (whose hook runs on both servers) has it.
		const getArticle = vi.fn(() =>
			Promise.resolve([{ ...openArticle(41, {}), pageUrl: PAGE_URL }])
		);
		vi.spyOn(session, 'api').mockResolvedValue({ getArticle } as unknown as TtrssClient);
		vi.stubGlobal(
			'fetch',
			vi.fn(() =>
				Promise.resolve(
					new Response(JSON.stringify({ url: 'http://feeds.test/rtl.html', html: RTL, images: [] }))
				)
			)
		);
		mount({ signedImages: {} });
		button().click();
		await settled();
		expect(getArticle).toHaveBeenCalledTimes(1);
		expect(target.querySelector('.full-text-body')?.getAttribute('dir')).toBe('rtl');
	});

	it('offline without a kept copy says so, and offers the full text once back online', async () => {
		const stopStatus = offlineStatus.start();
		const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
		const fetch = vi.fn(() =>
			Promise.resolve(
				new Response(JSON.stringify({ url: 'http://feeds.test/rtl.html', html: RTL, images: [] }))
			)
		);
		vi.stubGlobal('fetch', fetch);
		try {
			window.dispatchEvent(new Event('offline'));
			mount({ pageUrl: PAGE_URL, signedImages: {} });
			button().click();
			await settled();
			expect(target.querySelector('.full-text-notice')?.textContent).toContain(
				m.article_fulltext_offline()
			);
			expect(fetch).not.toHaveBeenCalled();
			await vi.waitFor(() => expect(target.textContent).toContain('Only a teaser.'), {
				timeout: 15_000
			});

			online.mockReturnValue(true);
			window.dispatchEvent(new Event('online'));
			flushSync();
			expect(target.querySelector('.full-text-notice')?.textContent).toContain(
				m.article_fulltext_online_again()
			);
			const again = [...target.querySelectorAll('button')].find(
				(b) => b.textContent === m.article_fulltext_retry()
			);
			again?.click();
			await settled();
			expect(target.querySelector('.full-text-body')?.getAttribute('dir')).toBe('rtl');
		} finally {
			stopStatus();
		}
	});

	it('says what to install where the server has no plugin, and asks nothing', async () => {
		const fetch = vi.fn();
		vi.stubGlobal('fetch', fetch);
		mount({});
		expect(button().title).toMatch(/needs the Reader plugin/);
		button().click();
		await settled();
		expect(target.querySelector('.full-text-notice')?.textContent).toMatch(
			/install the Reader’s release archive/
		);
		await vi.waitFor(() => expect(target.textContent).toContain('Only a teaser.'), {
			timeout: 15_000
		});
		expect(fetch).not.toHaveBeenCalled();
	});

	it('keeps the teaser with a clear message when the page is too large or too slow', async () => {
		for (const [error, words] of [
			['too_large', /too large to fetch/],
			['timeout', /took too long to answer/]
		] as const) {
			fullText.reset();
			target = freshTarget();
			vi.stubGlobal(
				'fetch',
				vi.fn(() =>
					Promise.resolve(new Response(JSON.stringify({ error, message: '' }), { status: 413 }))
				)
			);
			mount({ pageUrl: PAGE_URL, signedImages: {} });
			button().click();
			await settled();
			expect(target.querySelector('.full-text-notice')?.textContent).toMatch(words);
			// The feed's text stays (its body renders once the sanitizer has loaded).
			await vi.waitFor(() => expect(target.textContent).toContain('Only a teaser.'), {
				timeout: 15_000
			});
			expect(button().getAttribute('aria-pressed')).toBe('false');
		}
	});
});
