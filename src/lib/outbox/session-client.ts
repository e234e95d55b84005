/**
 * The one way to build a TtrssClient from a session kept in IndexedDB, for the page's session
 * (state/session.svelte.ts) and the service worker's replay alike: the stored session id and API
 * level, a new login by itself only when the reader chose "stay signed in", and the client bound to
 * the session's account, so the replay gives it only that account's changes.
 *
 * A client belongs to one sign-in. The password for a new login is read from storage each time,
 * and only while that sign-in is still the kept one; before every request the client asks the
 * same. So a replay or sync still running when the reader signs out (or signs in again) sends
 * nothing more and never logs in again (db/session.ts `sameSignIn`).
 */
import { deriveCapabilities, type FetchLike } from '$lib/api';
import { TtrssClient } from '$lib/api/client';
import { accountOf, bindAccount } from '$lib/db/account';
import type { StoredSession } from '$lib/db/schema';
import {
	isCurrentSignIn,
	loadSession,
	sessionOfSignIn,
	storedCredentials,
	updateSessionId,
	updateSessionImageProxy
} from '$lib/db/session';

export interface SessionClientOptions {
	fetch?: FetchLike;
	/** A new session id, or undefined when the session ended and no new login was possible. */
	onSessionChange: (sessionId: string | undefined) => void;
	/**
	 * Whether the sign-in is still on, asked before every request. By default the kept session is
	 * read (the worker); the page answers from memory, which hears other tabs' sign-outs.
	 */
	stillSignedIn?: () => boolean | Promise<boolean>;
	/** Told when a reply shows the server's Reader plugin signing images, or not, unlike before. */
	onImageProxy?: (on: boolean) => void;
}

/** A client for `stored`, bound to its account. */
export function clientForSession(
	stored: StoredSession,
	options: SessionClientOptions
): TtrssClient {
	const client = new TtrssClient({
		apiUrl: stored.apiUrl,
		...(options.fetch ? { fetch: options.fetch } : {}),
		sessionId: stored.sessionId || undefined,
		capabilities: deriveCapabilities(stored.apiLevel, stored.version),
		credentials: async () => {
			const current = await sessionOfSignIn(stored);
			return current ? storedCredentials(current) : null;
		},
		stillSignedIn: options.stillSignedIn ?? (() => isCurrentSignIn(stored)),
		onSessionChange: options.onSessionChange,
		...(stored.imageProxy !== undefined ? { imageProxy: stored.imageProxy } : {}),
		...(options.onImageProxy ? { onImageProxy: options.onImageProxy } : {})
	});
	return bindAccount(client, accountOf(stored));
}

/** The worker's client: new session ids are written back so the page picks them up. */
export async function clientFromStoredSession(fetch?: FetchLike): Promise<TtrssClient | undefined> {
	const stored = await loadSession();
	if (!stored) return undefined;
	const account = accountOf(stored);
	let known = stored.sessionId;
	return clientForSession(stored, {
		...(fetch ? { fetch } : {}),
		onSessionChange: (sessionId) => {
			// Only into this account's record, and only over the id this client knew, checked and
			// written in one transaction: the page may have signed out, signed in as someone else,
			// or found a newer session meanwhile.
			const replacing = known;
			known = sessionId ?? '';
			void updateSessionId(account, known, replacing).catch(() => undefined);
		},
		onImageProxy: (on) => void updateSessionImageProxy(account, on).catch(() => undefined)
	});
}
