/**
 * Which of an article's images open the full-screen viewer, taken from the rendered (sanitized)
 * article: only what the sanitizer kept is ever shown bigger. Images inside links stay links (the
 * feed chose where they go); tracking pixels are left out.
 */
import { m } from '$lib/i18n/m';

export interface ViewerImage {
	src: string;
	alt: string;
}

/** Marks an image that opens the viewer; also the selector the owner collects them by. */
export const VIEWABLE_ATTR = 'data-viewable';

function isPixel(img: HTMLImageElement): boolean {
	const tiny = (value: string | null): boolean => value !== null && Number(value) <= 2;
	return tiny(img.getAttribute('width')) || tiny(img.getAttribute('height'));
}

/**
 * Makes the body's images open the viewer: a button to assistive technology and the keyboard
 * (Enter/Space are handled by the owner), named by the image's own text.
 */
export function markViewable(root: ParentNode): void {
	for (const img of root.querySelectorAll('img')) {
		if (!img.getAttribute('src') || img.closest('a[href]') || isPixel(img)) continue;
		img.setAttribute(VIEWABLE_ATTR, '');
		img.setAttribute('role', 'button');
		img.tabIndex = 0;
		const alt = img.getAttribute('alt')?.trim();
		img.setAttribute(
			'aria-label',
			alt ? m.article_view_image({ name: alt }) : m.article_view_image_plain()
		);
	}
}

/** The viewable images under `root` in document order, with what the viewer shows of each. */
export function viewableImages(root: ParentNode): {
	elements: HTMLImageElement[];
	images: ViewerImage[];
} {
	const elements = [...root.querySelectorAll<HTMLImageElement>(`img[${VIEWABLE_ATTR}]`)];
	return {
		elements,
		images: elements.map((img) => ({
			src: img.currentSrc || img.src,
			alt: img.getAttribute('alt')?.trim() ?? ''
		}))
	};
}
