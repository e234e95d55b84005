import { describe, expect, it, vi } from 'vitest';
import {
	clockText,
	PlaybackPlace,
	SAVE_EVERY,
	skipTarget,
	speedChoices,
	SPEEDS,
	type PlayedMedia,
	type SavePosition
} from './playback';

const URL_ = 'http://feeds.test/media/episode.mp3';

/** An element whose metadata is in (readyState 1) unless told. */
const element = (patch: Partial<PlayedMedia> = {}): PlayedMedia => ({
	currentTime: 0,
	duration: 600,
	readyState: 1,
	...patch
});

const placeWithSaves = () => {
	const save = vi.fn<SavePosition>().mockResolvedValue(undefined);
	return { save, place: new PlaybackPlace(save) };
};

describe('the player’s rules', () => {
	it('offers the usual speeds, and the reader’s own when it is none of them', () => {
		expect(speedChoices(1.5)).toEqual(SPEEDS);
		expect(speedChoices(3)).toEqual([...SPEEDS, 3]);
	});

	it('a skip stops at the start and at a known end', () => {
		expect(skipTarget(10, 600, -15)).toBe(0);
		expect(skipTarget(100, 600, 30)).toBe(130);
		expect(skipTarget(590, 600, 30)).toBe(600);
		expect(skipTarget(590, Number.NaN, 30)).toBe(620);
	});

	it('the clock shows whole seconds, 0:00 while unknown', () => {
		expect(clockText(75.9)).toBe('1:15');
		expect(clockText(Number.NaN)).toBe('0:00');
		expect(clockText(0)).toBe('0:00');
	});
});

describe('PlaybackPlace', () => {
	it('restores once both the saved place and the metadata are in, in either order', () => {
		const { place } = placeWithSaves();
		const media = element({ readyState: 0 });
		place.loaded({ position: 120, duration: 600, finished: false, savedAt: 1 });
		expect(place.restore(media)).toBe(false);
		expect(media.currentTime).toBe(0);
		const ready = element();
		expect(place.restore(ready)).toBe(true);
		expect(ready.currentTime).toBe(120);
		// Once only.
		ready.currentTime = 5;
		expect(place.restore(ready)).toBe(false);
		expect(ready.currentTime).toBe(5);

		const { place: other } = placeWithSaves();
		expect(other.restore(element())).toBe(false);
	});

	it('the restore’s own seek says where it resumed and is not kept; the reader’s seek is kept', () => {
		const { place, save } = placeWithSaves();
		const media = element();
		place.loaded({ position: 120, duration: 600, finished: false, savedAt: 1 });
		place.restore(media);
		expect(place.seeked(URL_, media)).toEqual({ at: 120 });
		expect(save).not.toHaveBeenCalled();
		media.currentTime = 300;
		expect(place.seeked(URL_, media)).toBeUndefined();
		expect(save).toHaveBeenCalledWith(URL_, { position: 300, duration: 600, finished: false });
	});

	it('a host that cannot seek lands the restore on 0: no place to say', () => {
		const { place } = placeWithSaves();
		const media = element();
		place.loaded({ position: 120, duration: 600, finished: false, savedAt: 1 });
		place.restore(media);
		media.currentTime = 0;
		expect(place.seeked(URL_, media)).toEqual({ at: undefined });
	});

	it('keeps nothing before the restore, then every SAVE_EVERY seconds of play, and the end as a start over', () => {
		const { place, save } = placeWithSaves();
		const media = element({ duration: Number.NaN });
		place.keep(URL_, media);
		expect(save).not.toHaveBeenCalled();
		place.loaded(undefined);
		place.restore(element());
		media.currentTime = SAVE_EVERY - 1;
		place.played(URL_, media);
		expect(save).not.toHaveBeenCalled();
		media.currentTime = SAVE_EVERY;
		place.played(URL_, media);
		expect(save).toHaveBeenLastCalledWith(URL_, {
			position: SAVE_EVERY,
			duration: undefined,
			finished: false
		});
		place.keep(URL_, media, true);
		expect(save).toHaveBeenLastCalledWith(URL_, {
			position: 0,
			duration: undefined,
			finished: true
		});
	});
});
