/**
 * The article view's parts (ArticleChips, ArticleAttachments, ArticlePager) in jsdom: labels in
 * their safe colours, tags as links only where the server answers tag feeds, enclosures shown or
 * named by what the app may load, and the pager's neighbours.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment, Capabilities } from '$lib/api';
import { session } from '$lib/state/session.svelte';
import ArticleAttachments from './ArticleAttachments.svelte';
import ArticleChips from './ArticleChips.svelte';
import ArticlePager from './ArticlePager.svelte';
import { freshTarget, openArticle, show } from '$support/mounted';

let target: HTMLElement;

beforeEach(() => {
	target = freshTarget();
});
afterEach(() => {
	vi.restoreAllMocks();
});

function signedInWith(tagFeeds: boolean): void {
	vi.spyOn(session, 'signedIn', 'get').mockReturnValue(true);
	vi.spyOn(session, 'capabilities', 'get').mockReturnValue({
		tagFeeds
	} as unknown as Capabilities);
}

describe('ArticleChips', () => {
	const labels = [
		{ id: -1025, caption: 'Work', fgColor: '#ffffff', bgColor: '#aa0000' },
		{ id: -1026, caption: 'Odd', fgColor: 'red;background:url(x)', bgColor: '' }
	];

	it('shows the labels in their colours where the colours are safe, and blank tags not at all', () => {
		signedInWith(false);
		show(ArticleChips, target, { labels, tags: ['rust', ' ', 'web'] });
		const chips = [...target.querySelectorAll<HTMLElement>('li.chip')];
		expect(chips.map((c) => c.textContent?.trim())).toEqual(['Work', 'Odd', '#rust', '#web']);
		expect(chips[0]?.style.background).not.toBe('');
		expect(chips[1]?.getAttribute('style') ?? '').not.toContain('url');
		expect(target.querySelector('a')).toBeNull();
	});

	it('makes tags links to their list where the server answers tag feeds', () => {
		signedInWith(true);
		show(ArticleChips, target, { labels: [], tags: ['rust'] });
		const link = target.querySelector('a.chip.tag');
		expect(link?.getAttribute('aria-label')).toBe('Articles tagged rust');
		expect(link?.getAttribute('href')).toMatch(/\/tag\/rust$/);
	});

	it('shows nothing without labels or tags', () => {
		signedInWith(true);
		show(ArticleChips, target, { labels: [], tags: ['', ' '] });
		expect(target.querySelector('ul')).toBeNull();
	});
});

describe('ArticleAttachments', () => {
	function enclosure(id: number, patch: Partial<Attachment>): Attachment {
		return {
			id,
			contentUrl: `https://feeds.test/files/${id}.bin`,
			contentType: 'application/octet-stream',
			title: '',
			duration: undefined,
			width: undefined,
			height: undefined,
			postId: 9,
			...patch
		};
	}

	function showAttachments(attachments: Attachment[], signedImages?: Record<string, string>): void {
		const article = openArticle(9, { attachments, link: 'https://feeds.test/posts/9' });
		show(ArticleAttachments, target, {
			article,
			link: article.link,
			signedImages,
			track: { title: article.title, artist: '', artwork: undefined },
			onnext: undefined,
			onprevious: undefined,
			autoplayFirst: false
		});
	}

	it('shows an image as a button that opens the viewer, named by its title or file name', () => {
		showAttachments([
			enclosure(1, { contentUrl: 'https://feeds.test/img/cover.jpg', contentType: 'image/jpeg' }),
			enclosure(2, { contentType: 'application/pdf', title: 'The paper' })
		]);
		const figures = [...target.querySelectorAll('figure')];
		expect(figures).toHaveLength(2);
		const zoom = figures[0]?.querySelector('button.zoom');
		expect(zoom?.getAttribute('aria-label')).toBe('View image: cover.jpg');
		expect(zoom?.querySelector('img')?.hasAttribute('data-viewable')).toBe(true);
		expect(figures[1]?.querySelector('button')).toBeNull();
		expect(figures[1]?.querySelector('figcaption a')?.textContent).toBe('The paper');
		expect(figures[1]?.querySelector('figcaption .muted')?.textContent).toBe('application/pdf');
	});

	it('names an enclosure the app may not load, without loading or linking it', () => {
		showAttachments([
			enclosure(3, { contentUrl: 'javascript:alert(1)', contentType: 'image/png' })
		]);
		const figure = target.querySelector('figure');
		expect(figure?.querySelector('img')).toBeNull();
		expect(figure?.querySelector('a')).toBeNull();
		expect(figure?.querySelector('figcaption span')?.textContent).toBe('javascript:alert(1)');
	});

	it('where the Reader plugin signs images, shows an image through its proxy or says it is not available (issue 55)', () => {
		const proxied =
			'http://localhost:3000/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=u&sig=s';
		showAttachments(
			[
				enclosure(1, {
					contentUrl: 'https://images.example/signed.jpg',
					contentType: 'image/jpeg'
				}),
				enclosure(2, { contentUrl: 'https://images.example/not.jpg', contentType: 'image/jpeg' }),
				enclosure(3, { contentUrl: 'https://cdn.example/episode.mp3', contentType: 'audio/mpeg' })
			],
			{ 'https://images.example/signed.jpg': proxied }
		);
		const figures = [...target.querySelectorAll('figure')];
		expect(figures[0]?.querySelector('img')?.getAttribute('src')).toBe(proxied);
		// Not signed: never loaded from its host; the reader is told, and may still follow the link.
		expect(figures[1]?.querySelector('img')).toBeNull();
		expect(figures[1]?.querySelector('.unavailable')?.textContent).toBe(
			'Image not available through your server'
		);
		expect(figures[1]?.querySelector('figcaption a')?.getAttribute('href')).toBe(
			'https://images.example/not.jpg'
		);
		// Audio is no image: the player as before.
		expect(figures[2]?.querySelector('audio')?.getAttribute('src')).toBe(
			'https://cdn.example/episode.mp3'
		);
		expect(target.querySelectorAll('img[src^="https://images.example"]')).toHaveLength(0);
	});

	it('shows nothing for an article without enclosures', () => {
		showAttachments([]);
		expect(target.querySelector('section')).toBeNull();
	});
});

describe('ArticlePager', () => {
	it('links the neighbours there are and disables the missing ones', () => {
		show(ArticlePager, target, { kind: 'feed', listId: '4', previousId: undefined, nextId: 12 });
		expect(target.querySelector('a.back')?.getAttribute('href')).toMatch(/\/feed\/4$/);
		expect(target.querySelector('a[rel="next"]')?.getAttribute('href')).toMatch(/\/feed\/4\/12$/);
		expect(target.querySelector('a[rel="prev"]')).toBeNull();
		expect(target.querySelector('[aria-disabled="true"]')?.textContent).toBe('Previous article');
	});
});
