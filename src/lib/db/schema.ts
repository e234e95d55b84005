import type { DBSchema } from 'idb';

/** Who is signed in where. The password is kept only when the reader chose "stay signed in". */
export interface StoredSession {
	/** The API endpoint, e.g. `/tt-rss/api/` (same origin) or a full URL. */
	apiUrl: string;
	user: string;
	sessionId: string;
	apiLevel: number;
	/** Only known (and only needed) for servers below API level 5. */
	version?: string;
	/** Only with "stay signed in": lets the app and the service worker log in again by themselves. */
	password?: string;
	stayingSignedIn: boolean;
	singleUser: boolean;
	signedInAt: number;
}

export interface ReaderDB extends DBSchema {
	/** Small key-value settings that the service worker needs too. */
	settings: { key: string; value: unknown };
	/** One record, key `current`. */
	session: { key: 'current'; value: StoredSession };
}

export const DB_NAME = 'ttrss-reader';
