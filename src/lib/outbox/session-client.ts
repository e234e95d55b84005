/**
 * A TtrssClient built from the session kept in IndexedDB, the same way the page's session builds
 * its own: it logs in again by itself only when the reader chose "stay signed in". The service
 * worker replays with it; new session ids are written back so the page picks them up. The client
 * is bound to the stored session's account, so the replay gives it only that account's changes.
 */
import { deriveCapabilities, TtrssClient, type FetchLike } from '$lib/api';
import { accountOf, bindAccount } from '$lib/db/account';
import { loadSession, updateSessionId } from '$lib/db/session';

export async function clientFromStoredSession(fetch?: FetchLike): Promise<TtrssClient | undefined> {
	const stored = await loadSession();
	if (!stored) return undefined;
	const account = accountOf(stored);
	let known = stored.sessionId;
	const client = new TtrssClient({
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
			// Only into this account's record, and only over the id this client knew, checked and
			// written in one transaction: the page may have signed out, signed in as someone else,
			// or found a newer session meanwhile.
			const replacing = known;
			known = sessionId ?? '';
			void updateSessionId(account, known, replacing).catch(() => undefined);
		}
	});
	return bindAccount(client, account);
}
