import {
	deriveCapabilities,
	isApiError,
	type Capabilities,
	type Credentials,
	type TtrssClient
} from '$lib/api';
import { afterFirstScreen, takeEarlySession } from '$lib/boot/early-reads';
import { accountOf, setShownAccount, shownAccount } from '$lib/db/account';
import { closeNotices } from '$lib/alerts/close';
import type { Changes } from '$lib/db/device';
import {
	loadSession,
	sameSignIn,
	storedCredentials,
	updateSessionId,
	updateSessionImageProxy
} from '$lib/db/session';
import type { StoredSession } from '$lib/db/schema';

export interface SignInForm {
	/** The tt-rss address as the reader knows it, e.g. `/tt-rss/` or `https://host/tt-rss/`. */
	server: string;
	user: string;
	password: string;
	stayingSignedIn: boolean;
	singleUser: boolean;
}

/**
 * What to do with another account's unsent and failed changes when signing in: keep them for
 * that account (sent when it signs in again), discard them, or not sign in after all.
 */
export type OtherChangesChoice = 'keep' | 'discard' | 'cancel';
export type DecideOtherChanges = (others: Changes) => Promise<OtherChangesChoice>;

/** Tells the app's other tabs that the account changed or signed out: they reload. */
const SESSION_CHANNEL = 'ttrss-session';
interface SessionMessage {
	type: 'account';
	/** The account now signed in; undefined after a sign-out. */
	account: string | undefined;
}

/**
 * The API client's code (api/client.ts with its parsers, ~13 KB) is not on the first screen, which
 * shows what the cache holds: it is fetched by the first request (`session.api()`, which every
 * request waits on), or else once the first screen is shown.
 */
function loadClientCode() {
	return Promise.all([import('$lib/outbox/session-client'), import('$lib/api/client')]);
}

/** The device's sign-in and wipe steps (db/device.ts): only a sign-in or sign-out runs them. */
const deviceSteps = () => import('$lib/db/device');

/** The sign-in's steps with the server (sign-in-steps.ts): only a sign-in or renewal runs them. */
const signInSteps = () => import('./sign-in-steps');

/**
 * Who is signed in, and the one API client the pages use. The session id and (only with
 * "stay signed in", sealed) the password live in IndexedDB so the service worker can replay the
 * outbox. The client is bound to its account: the replay gives it that account's changes only.
 */
class Session {
	#stored = $state<StoredSession | undefined>();
	#restored = $state(false);
	#ended = $state(false);
	#client = $state.raw<TtrssClient | undefined>();
	/** The client of the session adopted last, once its code is in; started by the first ask. */
	#clientLoad: Promise<TtrssClient> | undefined;
	/** Starts loading the adopted session's client (#adopt). */
	#loadClient: (() => Promise<TtrssClient>) | undefined;
	#channel: BroadcastChannel | undefined;

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

	/** The tt-rss address as the sign-in form takes it (`/tt-rss/`); empty when signed out. */
	get server(): string {
		return this.apiUrl.replace(/api\/$/, '');
	}

	/** The account (server + user) signed in, as queued changes are stamped with it. */
	get account(): string | undefined {
		return this.#stored ? accountOf(this.#stored) : undefined;
	}

	get stayingSignedIn(): boolean {
		return this.#stored?.stayingSignedIn ?? false;
	}

	get singleUser(): boolean {
		return this.#stored?.singleUser ?? false;
	}

	/**
	 * The server ended the session and it could not be renewed (no kept password, or it was
	 * refused): the screens ask for the password in place; the cache and outbox stay.
	 */
	get ended(): boolean {
		return this.#ended;
	}

	/** The API client; only valid while signed in and once its code is in (see `api()`). */
	get client(): TtrssClient {
		if (!this.#client)
			throw new Error(this.#stored ? 'The API client is still loading' : 'Not signed in');
		return this.#client;
	}

	/**
	 * The API client, once its code is in; rejects when not signed in. A session adopted while the
	 * code loads (a renewal, another tab's sign-in) replaces the client asked for: the ask then
	 * waits for the new one instead of failing with "still loading" (a check-up found no client,
	 * 2026-12-07).
	 */
	async api(): Promise<TtrssClient> {
		for (;;) {
			const load = (this.#clientLoad ??= this.#loadClient?.());
			await load;
			if (this.#client || load === undefined || load === this.#clientLoad) return this.client;
		}
	}

	/** What the server can do, as far as known; undefined when signed out. */
	get capabilities(): Capabilities | undefined {
		const stored = this.#stored;
		if (!stored) return undefined;
		return this.#client?.capabilities ?? deriveCapabilities(stored.apiLevel, stored.version);
	}

	/**
	 * Whether tt-rss's Reader plugin signs this account's images, as its replies said: then no image
	 * is loaded from a feed's host, even one of a row its hook did not see (content/url.ts
	 * `signedImagesOf`).
	 */
	get imageProxy(): boolean {
		return this.#stored?.imageProxy === true;
	}

	/**
	 * The sign-in form is on screen: a sign-in's code (its steps with the server and the device,
	 * the API client) loads while the reader types, so the sign-in waits only for the server.
	 * A failed load (offline) is tried again by the sign-in itself.
	 */
	prepareSignIn(): void {
		void Promise.all([signInSteps(), deviceSteps(), loadClientCode()]).catch(() => undefined);
	}

	/** Loads the kept session once per page load. Works offline: no network call. */
	async restore(): Promise<void> {
		if (this.#restored) return;
		const stored = await (takeEarlySession() ?? loadSession());
		if (stored) this.#adopt(stored);
		this.#restored = true;
		this.#listen();
	}

	/**
	 * Signs in. When changes of another account are waiting on this device, `decide` is asked
	 * what to do with them before anything is stored (without it they are kept). A sign-in as
	 * another account empties the cache before the new session is stored. Returns false when the
	 * reader cancelled.
	 */
	async signIn(form: SignInForm, decide?: DecideOtherChanges): Promise<boolean> {
		const { apiUrlFor, logIn } = await signInSteps();
		const { stored, client } = await logIn({
			apiUrl: apiUrlFor(form.server),
			user: form.singleUser ? 'admin' : form.user.trim(),
			password: form.password,
			stayingSignedIn: form.stayingSignedIn,
			singleUser: form.singleUser
		});
		const account = accountOf(stored);
		const { changesByAccount, discardChangesNotOf, storeSessionFor } = await deviceSteps();
		const { others } = await changesByAccount(account);
		if (others.pending.length + others.failed.length > 0 && decide) {
			const choice = await decide(others);
			if (choice === 'cancel') {
				await client.logout({ timeoutMs: 5_000 }).catch(() => undefined);
				return false;
			}
			if (choice === 'discard') await discardChangesNotOf(account);
		}
		// Another account's alerts must not stay on screen (nor a tap on one open this account).
		if (await storeSessionFor(stored)) await closeNotices();
		this.#adopt(stored);
		// This session is the one: a read made before it (at start) must not replace it.
		void takeEarlySession();
		this.#restored = true;
		this.#announce(account);
		return true;
	}

	/**
	 * Signs in again as the same account after the session ended: only the password is asked.
	 * The cache and the outbox stay as they are.
	 */
	async renew(password: string): Promise<void> {
		const current = this.#stored;
		if (!current) throw new Error('Not signed in');
		const { stored } = await (await signInSteps()).logIn({ ...current, password });
		await (await deviceSteps()).storeSessionFor(stored);
		this.#adopt(stored);
	}

	/**
	 * Ends the server session when reachable, and always wipes this account's data on this device.
	 * In order: the kept session and the cache's owner go first (from then on no tab or worker
	 * logs in, sends or writes anything of this sign-in), the other tabs are told (they drop the
	 * account before the wipe), the server sessions end, and the wipe runs once the replay or sync
	 * still running has stopped (their Web Locks).
	 */
	async signOut(): Promise<void> {
		const client = this.#client;
		const stored = this.#stored;
		this.#client = undefined;
		this.#clientLoad = undefined;
		this.#loadClient = undefined;
		this.#stored = undefined;
		this.#ended = false;
		setShownAccount(undefined);
		if (!stored) {
			this.#announce(undefined);
			return;
		}
		const account = accountOf(stored);
		const { endSignIn, wipeAccount, withReplayAndSyncStopped } = await deviceSteps();
		try {
			const kept = await endSignIn();
			this.#announce(undefined);
			await client?.logout({ timeoutMs: 5_000 });
			// The worker may have logged in again meanwhile: its session ends too.
			if (kept?.sessionId && kept.sessionId !== stored.sessionId) {
				const [, { TtrssClient }] = await loadClientCode();
				await new TtrssClient({ apiUrl: stored.apiUrl, sessionId: kept.sessionId }).logout({
					timeoutMs: 5_000
				});
			}
		} catch (error) {
			// Offline or already ended: the local wipe below is what protects the reader.
			if (!isApiError(error)) throw error;
		} finally {
			await withReplayAndSyncStopped(() => wipeAccount(account));
			await closeNotices();
		}
	}

	/** The server said the session is over and it could not be renewed: ask for the password. */
	async sessionEnded(): Promise<void> {
		const stored = this.#stored;
		if (!stored) return;
		this.#ended = true;
		this.#stored = { ...stored, sessionId: '' };
		// Over the id that ended only: another tab or the worker may have a newer one.
		await updateSessionId(accountOf(stored), '', stored.sessionId);
	}

	#adopt(stored: StoredSession): void {
		this.#stored = stored;
		this.#ended = stored.sessionId === '' && this.#credentials() === null;
		const account = accountOf(stored);
		setShownAccount(account);
		this.#client = undefined;
		this.#clientLoad = undefined;
		const loadClient = (): Promise<TtrssClient> => {
			const load = loadClientCode().then(([{ clientForSession }]) => {
				const client = this.#bind(clientForSession, stored, account);
				if (this.#clientLoad === load) this.#client = client;
				return client;
			});
			return load;
		};
		this.#loadClient = loadClient;
		void afterFirstScreen().then(() => {
			if (this.#loadClient === loadClient) void this.api().catch(() => undefined);
		});
	}

	#bind(
		clientForSession: typeof import('$lib/outbox/session-client').clientForSession,
		stored: StoredSession,
		account: string
	): TtrssClient {
		return clientForSession(stored, {
			// This sign-in, still shown here: a sign-out here or in another tab (its message clears
			// the shown account before the wipe) stops every request of this client.
			stillSignedIn: () =>
				this.#stored !== undefined &&
				sameSignIn(this.#stored, stored) &&
				shownAccount() === account,
			onSessionChange: (sessionId) => {
				// A client of an account no longer signed in here says nothing.
				if (!this.#stored || this.account !== account) return;
				if (sessionId === undefined) {
					void this.sessionEnded();
					return;
				}
				const replacing = this.#stored.sessionId;
				this.#stored = { ...this.#stored, sessionId };
				this.#ended = false;
				void updateSessionId(account, sessionId, replacing);
			},
			onImageProxy: (on) => {
				if (!this.#stored || this.account !== account) return;
				this.#stored = { ...this.#stored, imageProxy: on };
				void updateSessionImageProxy(account, on).catch(() => undefined);
			}
		});
	}

	#credentials(): Credentials | null {
		return this.#stored ? storedCredentials(this.#stored) : null;
	}

	/** One channel per page: a BroadcastChannel never hears its own messages, another one would. */
	#sessionChannel(): BroadcastChannel | undefined {
		if (typeof BroadcastChannel === 'undefined' || typeof location === 'undefined')
			return undefined;
		this.#channel ??= new BroadcastChannel(SESSION_CHANNEL);
		return this.#channel;
	}

	/** Another tab signed in as another account, or signed out: what this tab shows is not theirs. */
	#listen(): void {
		const channel = this.#sessionChannel();
		if (!channel) return;
		channel.onmessage = (event: MessageEvent<SessionMessage>) => {
			if (event.data.type !== 'account') return;
			if (this.#stored ? event.data.account === this.account : event.data.account === undefined)
				return;
			// Nothing more of this account is written here (cache, start snapshot) before the reload.
			setShownAccount(undefined);
			location.reload();
		};
	}

	#announce(account: string | undefined): void {
		const message: SessionMessage = { type: 'account', account };
		this.#sessionChannel()?.postMessage(message);
	}
}

export const session = new Session();
