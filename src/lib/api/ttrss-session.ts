/**
 * The tt-rss session under the client (api/client.ts): the transport, the session id and the
 * sign-in it belongs to, sending an op (logging in again once on NOT_LOGGED_IN when credentials
 * may be kept), and what the server can do (its API level and version, detected once a session).
 * No DOM or Svelte dependency, so the service worker can use it.
 */
import { deriveCapabilities, type Capabilities } from './capabilities';
import { clientError, sessionEndedError } from './error-make';
import { ApiError, failWithWords } from './errors';
import { parseApiLevel, parseLoggedIn, parseLogin, parseVersionReply } from './parse';
import { Transport, type FetchLike } from './transport';
import type { LoginResult } from './types';
import { parseReply } from './wire';

/** tt-rss credentials. Both are left out in single-user mode (the server forces `admin`). */
export interface Credentials {
	user?: string;
	password?: string;
}

/**
 * Gives the credentials for a silent re-login, or null when the user did not choose
 * "stay signed in". Called only when a session has ended.
 */
export type CredentialsProvider = () =>
	Credentials | null | undefined | Promise<Credentials | null | undefined>;

export interface TtrssClientOptions {
	/** The API endpoint, e.g. `/tt-rss/api/` on the app's own origin. */
	apiUrl: string;
	/** Injected for tests; defaults to the global `fetch`. */
	fetch?: FetchLike;
	/** Per-request timeout in ms (default 20 000). */
	timeoutMs?: number;
	/** A session id kept from earlier (e.g. in IndexedDB). */
	sessionId?: string;
	credentials?: CredentialsProvider;
	/** Capabilities kept from earlier, to skip detection when starting offline. */
	capabilities?: Capabilities;
	/** Told whenever the session id changes (login, re-login, logout, session ended). */
	onSessionChange?: (sessionId: string | undefined) => void;
	/**
	 * Asked before every request but a logout, and after a login: false means the sign-in this
	 * client was made for is over (signed out, or signed in again). Nothing more is sent then, and
	 * a session just opened is ended at once.
	 */
	stillSignedIn?: () => boolean | Promise<boolean>;
	/** Whether the server's Reader plugin signs this account's images, as learned before. */
	imageProxy?: boolean;
	/** Told when a reply shows the plugin signing images, or not, unlike what was known. */
	onImageProxy?: (on: boolean) => void;
}

export interface OpOptions {
	signal?: AbortSignal;
	timeoutMs?: number;
	/**
	 * Called after a re-login, before the op is sent again; throwing abandons the retry with that
	 * error (the replay's catch-up: a call judged fresh may no longer be, outbox/replay.ts).
	 */
	beforeRetry?: () => void;
}

/** Ops that work without a session: they never trigger a re-login. */
const SESSIONLESS = new Set(['login', 'logout', 'isLoggedIn']);

export class TtrssSession {
	protected readonly transport: Transport;
	protected readonly transportOptions: TtrssClientOptions;
	private readonly credentials: CredentialsProvider | undefined;
	private readonly onSessionChange: ((sessionId: string | undefined) => void) | undefined;
	private readonly stillSignedIn: (() => boolean | Promise<boolean>) | undefined;
	protected sid: string | undefined;
	private caps: Capabilities | undefined;
	private capsPending: Promise<Capabilities> | undefined;
	private renewing: Promise<void> | undefined;

	constructor(options: TtrssClientOptions) {
		this.transport = new Transport(options);
		this.transportOptions = options;
		this.credentials = options.credentials;
		this.onSessionChange = options.onSessionChange;
		this.stillSignedIn = options.stillSignedIn;
		this.sid = options.sessionId;
		this.caps = options.capabilities;
	}

	get sessionId(): string | undefined {
		return this.sid;
	}

	/** Known capabilities, or undefined before detection (see detectCapabilities). */
	get capabilities(): Capabilities | undefined {
		return this.caps;
	}

	private setSession(sid: string | undefined): void {
		if (sid === this.sid) return;
		this.sid = sid;
		this.onSessionChange?.(sid);
	}

	/**
	 * Sends an op and returns its raw content. Public for plugin ops; prefer the typed methods.
	 * On NOT_LOGGED_IN it logs in again once (when credentials are available) and retries.
	 */
	async call(
		op: string,
		params: Record<string, unknown> = {},
		opts: OpOptions = {}
	): Promise<unknown> {
		return this.send(this.transport, op, params, opts);
	}

	protected async send(
		transport: Transport,
		op: string,
		params: Record<string, unknown>,
		opts: OpOptions
	): Promise<unknown> {
		// Not awaited when answered at once: a call's first request goes out as before.
		const signedIn = op === 'logout' || this.isSignedIn();
		if (signedIn !== true && !(await signedIn)) throw sessionEndedError(op);
		const sent = this.sid;
		try {
			return await transport.call(op, params, { ...opts, sid: sent });
		} catch (error) {
			if (!(error instanceof ApiError) || error.code !== 'NOT_LOGGED_IN' || SESSIONLESS.has(op)) {
				throw error;
			}
			await this.renewSession(op, sent, error, opts);
			await this.checkSignedIn(op);
			opts.beforeRetry?.();
			try {
				return await transport.call(op, params, { ...opts, sid: this.sid });
			} catch (retryError) {
				if (retryError instanceof ApiError && retryError.code === 'NOT_LOGGED_IN') {
					this.setSession(undefined);
					throw sessionEndedError(op, retryError);
				}
				throw retryError;
			}
		}
	}

	/** The sign-in is over: this client sends nothing more (the session is not its to end). */
	private async checkSignedIn(op: string): Promise<void> {
		if (!(await this.isSignedIn())) throw sessionEndedError(op);
	}

	/** Whether the sign-in is still on; a synchronous answer is taken without waiting. */
	private isSignedIn(): boolean | Promise<boolean> {
		return this.stillSignedIn ? this.stillSignedIn() : true;
	}

	/** Logs in again, once for all calls that found the same session dead. */
	protected async renewSession(
		op: string,
		deadSid: string | undefined,
		cause: ApiError,
		opts: OpOptions
	): Promise<void> {
		if (this.sid !== undefined && this.sid !== deadSid) return; // another call renewed it
		this.renewing ??= (async () => {
			const credentials = this.credentials ? await this.credentials() : undefined;
			if (!credentials) {
				this.setSession(undefined);
				throw sessionEndedError(op, cause);
			}
			try {
				await this.login(credentials, opts);
			} catch (error) {
				// A changed password ends the session for good; offline etc. stay as they are.
				if (error instanceof ApiError && error.code === 'LOGIN_ERROR') {
					this.setSession(undefined);
					throw sessionEndedError(op, error);
				}
				throw error;
			}
		})().finally(() => {
			this.renewing = undefined;
		});
		await this.renewing;
	}

	protected async op<T>(
		op: string,
		params: Record<string, unknown>,
		opts: OpOptions | undefined,
		parse: (content: unknown) => T
	): Promise<T> {
		const content = await this.call(op, params, opts);
		try {
			return parseReply(op, content, parse);
		} catch (error) {
			return failWithWords(error); // a reply that does not fit: its words may not be in yet
		}
	}

	protected async require(
		op: string,
		flag: keyof Capabilities,
		level: number,
		opts?: OpOptions
	): Promise<Capabilities> {
		const caps = await this.detectCapabilities(opts);
		if (!caps[flag]) {
			return failWithWords(clientError(op, 'UNSUPPORTED', { details: { needsApiLevel: level } }));
		}
		return caps;
	}

	/** Logs in; without user and password for single-user mode. Keeps the session id. */
	async login(credentials: Credentials = {}, opts: OpOptions = {}): Promise<LoginResult> {
		const params: Record<string, unknown> = {};
		if (credentials.user !== undefined) params.user = credentials.user;
		if (credentials.password !== undefined) params.password = credentials.password;
		await this.checkSignedIn('login');
		const content = await this.transport.call('login', params, { ...opts, phase: 'login' });
		const result = parseReply('login', content, parseLogin);
		if (!(await this.isSignedIn())) {
			// Signed out while the login was on its way: the session it opened is nobody's.
			await this.transport
				.call('logout', {}, { ...opts, sid: result.sessionId })
				.catch(() => undefined);
			throw sessionEndedError('login');
		}
		this.setSession(result.sessionId);
		// Level 5+ needs no version to know its capabilities; below, detect lazily.
		if (result.apiLevel !== undefined && result.apiLevel >= 5) {
			this.caps = deriveCapabilities(result.apiLevel);
		} else {
			this.caps = undefined;
		}
		return result;
	}

	/** Ends the session; a session the server already forgot counts as logged out. */
	async logout(opts?: OpOptions): Promise<void> {
		try {
			await this.call('logout', {}, opts);
		} catch (error) {
			if (!(error instanceof ApiError && error.code === 'NOT_LOGGED_IN')) throw error;
		} finally {
			this.setSession(undefined);
		}
	}

	async isLoggedIn(opts?: OpOptions): Promise<boolean> {
		if (this.sid === undefined) return false;
		return this.op('isLoggedIn', {}, opts, parseLoggedIn);
	}

	// ---------------------------------------------------------------- server facts

	/** The API level; a server error (e.g. UNKNOWN_METHOD on very old hosts) means level 0. */
	async getApiLevel(opts?: OpOptions): Promise<number> {
		try {
			return await this.op('getApiLevel', {}, opts, parseApiLevel);
		} catch (error) {
			if (
				error instanceof ApiError &&
				error.kind === 'server' &&
				error.code !== 'NOT_LOGGED_IN' &&
				error.code !== 'API_DISABLED'
			) {
				return 0;
			}
			throw error;
		}
	}

	async getVersion(opts?: OpOptions): Promise<string> {
		return this.op('getVersion', {}, opts, parseVersionReply);
	}

	/** Detects (once per session) and returns what the server can do. */
	async detectCapabilities(opts?: OpOptions): Promise<Capabilities> {
		if (this.caps) return this.caps;
		this.capsPending ??= (async () => {
			const level = await this.getApiLevel(opts);
			// Only hosts below level 5 need the version (label ids before 1.7.5).
			const version = level < 5 ? await this.getVersion(opts).catch(() => undefined) : undefined;
			this.caps = deriveCapabilities(level, version);
			return this.caps;
		})().finally(() => {
			this.capsPending = undefined;
		});
		return this.capsPending;
	}
}
