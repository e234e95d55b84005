import { deriveCapabilities, isApiError, TtrssClient, type Credentials } from '$lib/api';
import { takeEarlySession } from '$lib/boot/early-reads';
import { loadSession, saveSession, wipeAll } from '$lib/db/session';
import type { StoredSession } from '$lib/db/schema';
import { apiUrlFor } from './server-address';

export interface SignInForm {
	/** The tt-rss address as the reader knows it, e.g. `/tt-rss/` or `https://host/tt-rss/`. */
	server: string;
	user: string;
	password: string;
	stayingSignedIn: boolean;
	singleUser: boolean;
}

/**
 * Who is signed in, and the one API client the pages use. The session id and (only with
 * "stay signed in") the password live in IndexedDB so the service worker can replay the outbox.
 */
class Session {
	#stored = $state<StoredSession | undefined>();
	#restored = $state(false);
	#client: TtrssClient | undefined;

	get restored(): boolean {
		return this.#restored;
	}

	get signedIn(): boolean {
		return this.#stored !== undefined;
	}

	get user(): string | undefined {
		return this.#stored?.user;
	}

	/** The API endpoint, e.g. `/tt-rss/api/`; empty when signed out. */
	get apiUrl(): string {
		return this.#stored?.apiUrl ?? '';
	}

	get stayingSignedIn(): boolean {
		return this.#stored?.stayingSignedIn ?? false;
	}

	/** The API client; only valid while signed in. */
	get client(): TtrssClient {
		if (!this.#client) throw new Error('Not signed in');
		return this.#client;
	}

	/** Loads the kept session once per page load. Works offline: no network call. */
	async restore(): Promise<void> {
		if (this.#restored) return;
		const stored = await (takeEarlySession() ?? loadSession());
		if (stored) this.#adopt(stored);
		this.#restored = true;
	}

	async signIn(form: SignInForm): Promise<void> {
		const apiUrl = apiUrlFor(form.server);
		const credentials: Credentials = form.singleUser
			? {}
			: { user: form.user.trim(), password: form.password };
		const client = new TtrssClient({ apiUrl });
		const login = await client.login(credentials);
		const caps = await client.detectCapabilities();
		const stored: StoredSession = {
			apiUrl,
			user: form.singleUser ? 'admin' : form.user.trim(),
			sessionId: login.sessionId,
			apiLevel: caps.apiLevel,
			stayingSignedIn: form.stayingSignedIn,
			singleUser: form.singleUser,
			signedInAt: Date.now(),
			...(caps.version !== undefined ? { version: caps.version } : {}),
			...(form.stayingSignedIn && !form.singleUser ? { password: form.password } : {})
		};
		await saveSession(stored);
		this.#adopt(stored);
		// This session is the one: a read made before it (at start) must not replace it.
		void takeEarlySession();
		this.#restored = true;
	}

	/** Ends the server session when reachable, and always wipes everything kept on this device. */
	async signOut(): Promise<void> {
		const client = this.#client;
		this.#client = undefined;
		this.#stored = undefined;
		try {
			await client?.logout({ timeoutMs: 5_000 });
		} catch (error) {
			// Offline or already ended: the local wipe below is what protects the reader.
			if (!isApiError(error)) throw error;
		} finally {
			await wipeAll();
		}
	}

	/** The server said the session is over and no credentials were kept: ask to sign in. */
	async sessionEnded(): Promise<void> {
		if (!this.#stored) return;
		const ended: StoredSession = { ...this.#stored, sessionId: '' };
		await saveSession(ended);
		this.#stored = ended;
	}

	#adopt(stored: StoredSession): void {
		this.#stored = stored;
		this.#client = new TtrssClient({
			apiUrl: stored.apiUrl,
			sessionId: stored.sessionId || undefined,
			capabilities: deriveCapabilities(stored.apiLevel, stored.version),
			credentials: () => this.#credentials(),
			onSessionChange: (sessionId) => {
				if (!this.#stored || sessionId === undefined) return;
				this.#stored = { ...this.#stored, sessionId };
				void saveSession(this.#stored);
			}
		});
	}

	#credentials(): Credentials | null {
		const stored = this.#stored;
		if (!stored?.stayingSignedIn) return null;
		if (stored.singleUser) return {};
		return stored.password !== undefined ? { user: stored.user, password: stored.password } : null;
	}
}

export const session = new Session();
