/**
 * The enclosure player's rules (components/EnclosurePlayer.svelte), apart from its element: the
 * speeds it offers, its skips, its clock's text, and where the reader left a file: restored once
 * both the saved place and the file's metadata are in, kept every few seconds while it plays and
 * at once on a pause or a seek.
 */
import { duration as formatDuration } from '$lib/format/format';
import { resumeAt, type MediaPosition } from './positions';

export const SPEEDS: readonly number[] = [0.75, 1, 1.25, 1.5, 1.75, 2, 2.5];
/** Seconds of the back and forward skips (podcast players' usual 15 and 30). */
export const BACK = 15;
export const FORWARD = 30;
/** Seconds of playback between two saves while playing (a pause or seek saves at once). */
export const SAVE_EVERY = 5;
/** HTMLMediaElement.HAVE_METADATA: the file's duration is known. */
const HAVE_METADATA = 1;

/** The speeds to offer: the usual ones, and the reader's own when it is none of them. */
export function speedChoices(rate: number): readonly number[] {
	return SPEEDS.includes(rate) ? SPEEDS : [...SPEEDS, rate];
}

/** Where a skip of `seconds` lands: never before the start nor past a known end. */
export function skipTarget(current: number, duration: number, seconds: number): number {
	const end = Number.isFinite(duration) ? duration : Infinity;
	return Math.min(Math.max(current + seconds, 0), end);
}

/** The clock's text for a time in seconds (0:00 while the duration is unknown). */
export function clockText(seconds: number): string {
	return formatDuration(Number.isFinite(seconds) ? Math.floor(seconds) : 0) ?? '0:00';
}

/** What the place keeping needs of a media element. */
export interface PlayedMedia {
	currentTime: number;
	readonly duration: number;
	readonly readyState: number;
}

export type SavePosition = (url: string, value: Omit<MediaPosition, 'savedAt'>) => Promise<void>;

/** Where the reader left one player's file, and keeping it. */
export class PlaybackPlace {
	#saved: MediaPosition | undefined;
	#loaded = false;
	#restored = false;
	/** The seek to the saved place is under way (its `seeked` is not the reader's). */
	#restoring = false;
	#lastSaved = 0;

	constructor(private readonly save: SavePosition) {}

	/** The saved place arrived (from positions.ts `loadPosition`). */
	loaded(saved: MediaPosition | undefined): void {
		this.#saved = saved;
		this.#loaded = true;
	}

	/**
	 * Seeks to the saved place once both it and the file's metadata are in (they arrive in either
	 * order). True the one time it restored, when the player may start playing.
	 */
	restore(media: PlayedMedia): boolean {
		if (this.#restored || !this.#loaded || media.readyState < HAVE_METADATA) return false;
		this.#restored = true;
		const at = resumeAt(this.#saved, media.duration);
		if (at > 0 && media.currentTime === 0) {
			this.#restoring = true;
			media.currentTime = at;
		}
		return true;
	}

	/** Keeps where `url` is now (played to the end: the next play starts over); not before it was restored. */
	keep(url: string, media: PlayedMedia, finished = false): void {
		if (!this.#restored) return;
		this.#lastSaved = media.currentTime;
		const dur = Number.isFinite(media.duration) ? media.duration : undefined;
		void this.save(url, { position: finished ? 0 : media.currentTime, duration: dur, finished });
	}

	/** Playing on: kept when it moved SAVE_EVERY seconds from the last place kept. */
	played(url: string, media: PlayedMedia): void {
		if (Math.abs(media.currentTime - this.#lastSaved) >= SAVE_EVERY) this.keep(url, media);
	}

	/**
	 * A seek ended. The reader's is kept at once (undefined); the restore's says where it resumed
	 * (`at` undefined when the host ignores Range requests and the seek landed on 0).
	 */
	seeked(url: string, media: PlayedMedia): { at: number | undefined } | undefined {
		if (!this.#restoring) {
			this.keep(url, media);
			return undefined;
		}
		this.#restoring = false;
		return { at: media.currentTime > 0 ? media.currentTime : undefined };
	}
}
