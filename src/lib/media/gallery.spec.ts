// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeArticle } from '$lib/content/sanitize';
import { markViewable, viewableImages } from './gallery';

function render(html: string): HTMLElement {
	const root = document.createElement('div');
	root.append(sanitizeArticle(html, { baseUrl: 'http://feeds.test/hostile/item' }));
	markViewable(root);
	return root;
}

describe('the article images the viewer shows', () => {
	it('are the sanitized body images in order, named buttons; links and pixels stay as they are', () => {
		const root = render(
			'<p><img src="http://feeds.test/media/a.png" alt="First"></p>' +
				'<a href="http://feeds.test/full"><img src="http://feeds.test/media/linked.png" alt="L"></a>' +
				'<img src="http://feeds.test/pixel.gif" width="1" height="1">' +
				'<img src="second.png" alt="">'
		);
		const { elements, images } = viewableImages(root);
		expect(images).toEqual([
			{ src: 'http://feeds.test/media/a.png', alt: 'First' },
			{ src: 'http://feeds.test/hostile/second.png', alt: '' }
		]);
		expect(elements.map((e) => e.getAttribute('aria-label'))).toEqual([
			'View image: First',
			'View image'
		]);
		expect(elements.every((e) => e.getAttribute('role') === 'button' && e.tabIndex === 0)).toBe(
			true
		);
	});

	it('never include what the sanitizer dropped', () => {
		const root = render(
			'<img src="javascript:alert(1)" alt="js"><img src="x:x" onerror="alert(1)" alt="bad">' +
				'<svg><image href="http://feeds.test/svg.png"></image></svg>' +
				'<img src="http://feeds.test/media/ok.png" onerror="alert(2)" alt="ok">'
		);
		const { images, elements } = viewableImages(root);
		expect(images).toEqual([{ src: 'http://feeds.test/media/ok.png', alt: 'ok' }]);
		expect(elements[0]?.hasAttribute('onerror')).toBe(false);
	});
});
