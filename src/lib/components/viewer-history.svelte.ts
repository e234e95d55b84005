/**
 * The article's image viewer, apart from the article's markup (ArticleView.svelte): which images
 * it shows and where it was opened from. Its open image lives in history state, so the back button
 * (a phone's) closes it; closing returns the focus to the image it was opened from. Made while a
 * component starts (its focus return is an effect of that component).
 */
import { pushState, replaceState } from '$app/navigation';
import { page } from '$app/state';
import type { Attachment } from 'svelte/attachments';
import { whenAllMessages } from '$lib/i18n/m';
import { VIEWABLE_ATTR, viewableImages, type ViewerImage } from '$lib/media/gallery';

const viewable = (el: Element | null | undefined): HTMLImageElement | undefined =>
	el instanceof HTMLImageElement && el.hasAttribute(VIEWABLE_ATTR) ? el : undefined;

export class ViewerHistory {
	/** The images of the article the viewer was last opened on. */
	images = $state<ViewerImage[]>([]);
	private opener: { img: HTMLElement; root: HTMLElement; at: number } | undefined;
	/** Set between history.back() and its popstate: a second close must not go back twice. */
	private closing = false;

	constructor() {
		// Closing (button, Escape or back) returns focus to the image it was opened from; the body
		// drawn anew meanwhile (a sync brought the article again), to the image in its place.
		$effect(() => {
			const index = this.index;
			if (index === undefined) this.closing = false;
			if (index === undefined && this.opener) {
				const { img, root, at } = this.opener;
				const target = img.isConnected ? img : viewableImages(root).elements[at];
				target?.focus({ preventScroll: true });
				this.opener = undefined;
			}
		});
	}

	/** The image shown, while the viewer is open. */
	get index(): number | undefined {
		return page.state.imageViewer;
	}

	/** Shows another of the images (next, previous), in place of the one in history. */
	readonly show = (index: number): void => replaceState('', { imageViewer: index });

	readonly close = (): void => {
		if (page.state.imageViewer === undefined || this.closing) return;
		this.closing = true;
		history.back();
	};

	/** Clicks and Enter/Space on a viewable image (body or image enclosure) open the viewer. */
	readonly opensImages: Attachment<HTMLElement> = (root) => {
		// A click on an image, or on the button around an image enclosure (also Enter on it).
		const onClick = (event: MouseEvent): void => {
			const at = event.target instanceof Element ? event.target : null;
			const img =
				viewable(at?.closest('img')) ?? viewable(at?.closest('button')?.querySelector('img'));
			if (img) void this.open(img, root);
		};
		// Body images are made buttons (gallery.ts markViewable) but stay <img>: their keys here.
		const onKey = (event: KeyboardEvent): void => {
			if (event.key !== 'Enter' && event.key !== ' ') return;
			const img = viewable(event.target instanceof Element ? event.target : null);
			if (!img) return;
			event.preventDefault();
			void this.open(img, root);
		};
		root.addEventListener('click', onClick);
		root.addEventListener('keydown', onKey);
		return () => {
			root.removeEventListener('click', onClick);
			root.removeEventListener('keydown', onKey);
		};
	};

	private async open(img: HTMLImageElement, root: HTMLElement): Promise<void> {
		const { elements, images } = viewableImages(root);
		const at = elements.indexOf(img);
		if (at === -1) return;
		// The viewer's words are in the later module (viewer_ keys).
		await whenAllMessages();
		this.images = images;
		this.opener = { img, root, at };
		pushState('', { imageViewer: at });
	}
}
