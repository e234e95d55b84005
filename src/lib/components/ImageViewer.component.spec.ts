/**
 * The image viewer (ImageViewer.svelte) in jsdom: which image it shows, and that its buttons, keys
 * and a swipe ask its owner for another image or to close (the owner keeps the index). The zoom
 * and pointer rules themselves are media/viewer-input.spec.ts's.
 */
import { flushSync } from 'svelte';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import ImageViewer from './ImageViewer.svelte';
import { dialogsInJsdom, freshTarget, show } from '$support/mounted';

const IMAGES = [
	{ src: 'http://feeds.test/a.png', alt: 'A harbour' },
	{ src: 'http://feeds.test/b.png', alt: 'A lighthouse' }
];
let target: HTMLElement;
const onshow = vi.fn<(index: number) => void>();
const onclose = vi.fn<() => void>();

beforeAll(dialogsInJsdom);
beforeEach(() => {
	target = freshTarget();
	onshow.mockReset();
	onclose.mockReset();
});

const button = (label: string): HTMLButtonElement =>
	target.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!;
const key = (name: string): KeyboardEvent => {
	const event = new KeyboardEvent('keydown', { key: name, cancelable: true });
	window.dispatchEvent(event);
	flushSync();
	return event;
};
const transform = (): string => target.querySelector('img')!.style.transform;

describe('ImageViewer', () => {
	it('opens as a modal dialog on the image asked for, with its place and caption', () => {
		show(ImageViewer, target, { images: IMAGES, index: 1, onshow, onclose });
		expect(target.querySelector('dialog')?.open).toBe(true);
		expect(target.querySelector('h2')?.textContent).toBe('Image 2 of 2');
		expect(target.querySelector('img')?.getAttribute('src')).toBe(IMAGES[1]!.src);
		expect(target.querySelector('.caption')?.textContent).toBe('A lighthouse');
		expect(button('Next image').disabled).toBe(true);
		expect(button('Previous image').disabled).toBe(false);
	});

	it('Next, the arrow keys and the close button ask the owner; keys it does not use are left alone', () => {
		show(ImageViewer, target, { images: IMAGES, index: 0, onshow, onclose });
		button('Next image').click();
		expect(onshow).toHaveBeenLastCalledWith(1);
		expect(key('ArrowRight').defaultPrevented).toBe(true);
		expect(onshow).toHaveBeenCalledTimes(2);
		// No image before the first.
		key('ArrowLeft');
		expect(onshow).toHaveBeenCalledTimes(2);
		expect(key('x').defaultPrevented).toBe(false);
		button('Close image viewer').click();
		expect(onclose).toHaveBeenCalledOnce();
	});

	it('+ zooms in and enables Zoom out, 0 fits the image again', () => {
		show(ImageViewer, target, { images: IMAGES, index: 0, onshow, onclose });
		expect(button('Zoom out').disabled).toBe(true);
		key('+');
		expect(transform()).toContain('scale(1.5)');
		expect(button('Zoom out').disabled).toBe(false);
		key('0');
		expect(transform()).toContain('scale(1)');
	});

	it('a one-finger swipe to the left on a fitted image asks for the next', () => {
		show(ImageViewer, target, { images: IMAGES, index: 0, onshow, onclose });
		const stage = target.querySelector<HTMLElement>('.stage')!;
		stage.setPointerCapture = () => undefined;
		const pointer = (type: string, clientX: number): void => {
			const event = new MouseEvent(type, { clientX, clientY: 100, bubbles: true });
			Object.assign(event, { pointerId: 1, pointerType: 'touch' });
			stage.dispatchEvent(event);
		};
		pointer('pointerdown', 300);
		pointer('pointermove', 200);
		pointer('pointerup', 150);
		expect(onshow).toHaveBeenCalledWith(1);
	});
});
