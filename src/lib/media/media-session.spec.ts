import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimMediaSession } from './media-session';

/** A Media Session that, like Firefox ESR, refuses actions it does not know. */
function fakeSession(known: string[]) {
	const handlers = new Map<string, unknown>();
	return {
		handlers,
		metadata: null as unknown,
		playbackState: 'none',
		setActionHandler(action: string, handler: unknown) {
			if (!known.includes(action)) throw new TypeError(`unknown action ${action}`);
			if (handler) handlers.set(action, handler);
			else handlers.delete(action);
		}
	};
}

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('Media Session', () => {
	it('is a no-op where the API is missing', () => {
		vi.stubGlobal('navigator', {});
		const release = claimMediaSession({ title: 't', artist: 'a', artwork: undefined }, {});
		expect(() => release()).not.toThrow();
	});

	it('sets what the browser knows, skips what it refuses, and a stale release keeps the new owner', () => {
		const session = fakeSession(['play', 'pause', 'seekto']);
		vi.stubGlobal('navigator', { mediaSession: session });
		vi.stubGlobal(
			'MediaMetadata',
			class {
				constructor(readonly init: object) {}
			}
		);
		const seekTo = vi.fn();
		const first = claimMediaSession(
			{ title: 'Episode', artist: 'Feed', artwork: 'http://feeds.test/a.png' },
			{ play: () => undefined, pause: () => undefined, next: () => undefined, seekTo }
		);
		expect([...session.handlers.keys()].sort()).toEqual(['pause', 'play', 'seekto']);
		(session.handlers.get('seekto') as (d: { seekTime?: number }) => void)({ seekTime: 42 });
		expect(seekTo).toHaveBeenCalledWith(42);
		expect(session.metadata).toMatchObject({
			init: { title: 'Episode', artist: 'Feed', artwork: [{ src: 'http://feeds.test/a.png' }] }
		});

		claimMediaSession(
			{ title: 'Read aloud', artist: 'Feed', artwork: undefined },
			{ play: () => undefined }
		);
		first();
		expect(session.handlers.has('play')).toBe(true);
		expect(session.metadata).toMatchObject({ init: { title: 'Read aloud' } });
	});
});
