/**
 * A TtrssClient built from the session kept in IndexedDB, the same way the page's session builds
 * its own: it logs in again by itself only when the reader chose "stay signed in". The service
 * worker replays with it; new session ids are written back so the page picks them up.
 */
import { deriveCapabilities, TtrssClient, type FetchLike } from '$lib/api';
import { loadSession, saveSession } from '$lib/db/session';

export async function clientFromStoredSession(fetch?: FetchLike): Promise<TtrssClient | undefined> {
	const stored = await loadSession();
	if (!stored) return undefined;
	return new TtrssClient({
		apiUrl: stored.apiUrl,
		...(fetch ? { fetch } : {}),
		sessionId: stored.sessionId || undefined,
		capabilities: deriveCapabilities(stored.apiLevel, stored.version),
		credentials: () => {
			if (!stored.stayingSignedIn) return null;
			if (stored.singleUser) return {};
			return stored.password !== undefined
				? { user: stored.user, password: stored.password }
				: null;
		},
		onSessionChange: (sessionId) => {
			if (sessionId === undefined) return;
			void (async () => {
				// Re-read: the page may have signed in as someone else meanwhile.
				const current = await loadSession();
				if (current && current.user === stored.user && current.apiUrl === stored.apiUrl) {
					await saveSession({ ...current, sessionId });
				}
			})();
		}
	});
}
