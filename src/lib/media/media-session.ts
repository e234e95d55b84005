/**
 * The lock screen's and headset's controls (Media Session API) for whatever plays now: an
 * enclosure or the read-aloud voice. Feature-detected: Firefox ESR and WebKitGTK lack parts of it
 * (docs/engines.md), and an action the browser does not know throws from setActionHandler.
 */

export interface SessionTrack {
	title: string;
	/** The feed's title. */
	artist: string;
	/** An image URL the app may load (feed icon or the article's image). */
	artwork: string | undefined;
}

export interface SessionHandlers {
	play?: () => void;
	pause?: () => void;
	stop?: () => void;
	seekBackward?: () => void;
	seekForward?: () => void;
	seekTo?: (seconds: number) => void;
	next?: () => void;
	previous?: () => void;
}

const ACTIONS: [MediaSessionAction, keyof SessionHandlers][] = [
	['play', 'play'],
	['pause', 'pause'],
	['stop', 'stop'],
	['seekbackward', 'seekBackward'],
	['seekforward', 'seekForward'],
	['seekto', 'seekTo'],
	['nexttrack', 'next'],
	['previoustrack', 'previous']
];

function mediaSession(): MediaSession | undefined {
	return typeof navigator !== 'undefined' && 'mediaSession' in navigator
		? navigator.mediaSession
		: undefined;
}

export function hasMediaSession(): boolean {
	return mediaSession() !== undefined;
}

let owner: object | undefined;

function setHandler(session: MediaSession, action: MediaSessionAction, handler: unknown): void {
	try {
		session.setActionHandler(action, (handler as MediaSessionActionHandler | undefined) ?? null);
	} catch {
		// This browser does not know the action: its button is simply not shown.
	}
}

/**
 * Shows `track` with these controls until the returned release is called (or another owner
 * claims the session). Releasing after someone else claimed it changes nothing.
 */
export function claimMediaSession(track: SessionTrack, handlers: SessionHandlers): () => void {
	const session = mediaSession();
	const token = {};
	owner = token;
	if (session) {
		try {
			session.metadata = new MediaMetadata({
				title: track.title,
				artist: track.artist,
				artwork: track.artwork ? [{ src: track.artwork }] : []
			});
		} catch {
			// MediaMetadata missing or refusing the artwork: the controls still work.
		}
		const { seekTo, ...plain } = handlers;
		for (const [action, key] of ACTIONS) {
			if (key === 'seekTo') {
				setHandler(
					session,
					action,
					seekTo &&
						((details: MediaSessionActionDetails) => {
							if (details.seekTime !== undefined) seekTo(details.seekTime);
						})
				);
			} else {
				setHandler(session, action, plain[key]);
			}
		}
	}
	return () => {
		if (owner !== token) return;
		owner = undefined;
		if (!session) return;
		session.metadata = null;
		session.playbackState = 'none';
		for (const [action] of ACTIONS) setHandler(session, action, undefined);
	};
}

export function setSessionPlaying(playing: boolean): void {
	const session = mediaSession();
	if (session) session.playbackState = playing ? 'playing' : 'paused';
}

/** Keeps the lock screen's progress bar true; ignored where unsupported or not yet known. */
export function setSessionPosition(duration: number, position: number, rate: number): void {
	const session = mediaSession();
	if (!session?.setPositionState || !Number.isFinite(duration) || duration <= 0) return;
	try {
		session.setPositionState({
			duration,
			position: Math.min(Math.max(position, 0), duration),
			playbackRate: rate
		});
	} catch {
		// A rate or position the browser refuses: the bar is only a hint.
	}
}
