import { describe, expect, it } from 'vitest';
import { keyEvent as key } from '$support/factories';
import { commandFor, SHORTCUTS } from './shortcuts';

describe('keyboard shortcuts', () => {
	it('maps tt-rss keys to commands', () => {
		expect(commandFor(key('j'))).toBe('nextArticle');
		expect(commandFor(key('n'))).toBe('nextArticle');
		expect(commandFor(key('k'))).toBe('previousArticle');
		expect(commandFor(key('J', { shiftKey: true }))).toBe('nextFeed');
		expect(commandFor(key('P', { shiftKey: true }))).toBe('togglePublished');
		expect(commandFor(key('?', { shiftKey: true }))).toBe('help');
		expect(commandFor(key('s'))).toBe('toggleStar');
		expect(commandFor(key('ArrowUp', { shiftKey: true }))).toBe('markAboveRead');
		expect(commandFor(key('ArrowDown', { shiftKey: true }))).toBe('markBelowRead');
		expect(commandFor(key('Escape', { shiftKey: true }))).toBe('closeArticle');
	});

	it('ignores modified keys and unknown ones', () => {
		expect(commandFor(key('j', { ctrlKey: true }))).toBeUndefined();
		expect(commandFor(key('r', { metaKey: true }))).toBeUndefined();
		expect(commandFor(key('q'))).toBeUndefined();
		// Listed for the help, acted on by the toast that offers the Undo (Toasts.svelte).
		expect(commandFor(key('z'))).toBe('undo');
		// A bare arrow scrolls, as the browser does.
		expect(commandFor(key('ArrowDown'))).toBeUndefined();
	});

	it('lists every key once', () => {
		const keys = SHORTCUTS.flatMap((s) => s.keys);
		expect(new Set(keys).size).toBe(keys.length);
	});
});
