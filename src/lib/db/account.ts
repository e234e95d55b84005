/**
 * Which account a queued change, a cached record or an API client belongs to. An account is the
 * tt-rss server's API address made absolute plus the user name: the same user on another server,
 * or another user on the same server, is another account. Queued changes are only ever sent with a
 * client of their own account, and a cache is only ever shown to the account that filled it.
 */

/** The parts of a session that name its account. */
export interface AccountParts {
	apiUrl: string;
	user: string;
}

function absoluteApiUrl(apiUrl: string): string {
	const base = typeof location === 'undefined' ? 'http://localhost/' : location.href;
	let url: URL;
	try {
		url = new URL(apiUrl.trim(), base);
	} catch {
		// Never stored by sign-in (it checks the address); still an account of its own.
		return apiUrl.trim();
	}
	url.hash = '';
	url.search = '';
	// `/tt-rss/api` and `/tt-rss/api/` reach the same endpoint.
	if (!url.pathname.endsWith('/') && !url.pathname.endsWith('.php')) url.pathname += '/';
	return url.href;
}

/**
 * The account's name, e.g. `reader@http://localhost/tt-rss/api/`. tt-rss matches user names without
 * regard to case, so `Reader` and `reader` are one account. The user part is URI-encoded so no user
 * name can make two accounts look alike.
 */
export function accountOf(session: AccountParts): string {
	return `${encodeURIComponent(session.user.trim().toLowerCase())}@${absoluteApiUrl(session.apiUrl)}`;
}

let shown: string | undefined;

/**
 * The account this page (or worker) works for: set by the page's session when it signs in or
 * restores, cleared at sign-out. A tab left open while another tab signs in as someone else keeps
 * its own account until it reloads: its new changes are stamped with it, and what it fetches is
 * not written into the other account's cache.
 */
export function setShownAccount(account: string | undefined): void {
	shown = account;
}

export function shownAccount(): string | undefined {
	return shown;
}

/**
 * Whether data fetched for `account` (by default the account this page works for) may go into a
 * cache owned by `owner`: only into that same account's cache, and only while this page works for
 * it too. Nothing when the cache has no owner (signed out: the wipe has run or is about to) or the
 * account a write was fetched for is unknown (the worker names it: it shows no account).
 */
export function mayWriteCache(owner: unknown, account: string | undefined = shown): boolean {
	return owner !== undefined && owner === account && (shown === undefined || shown === owner);
}

/**
 * Whether a reader's change made in `account` goes into a cache owned by `owner`, when it is queued
 * and when it is undone: into that account's cache, or one nobody owns yet; a change of unknown
 * account too. A tab left open for an earlier account changes only its own queued items: the cache
 * is another account's now, where the same ids name other articles.
 */
export function changeFitsCache(owner: unknown, account: string | undefined): boolean {
	return account === undefined || owner === undefined || owner === account;
}

const clientAccounts = new WeakMap<object, string>();

/**
 * Ties an API client to the account whose session it carries. The page's session and the worker's
 * stored-session client do it when they build one; the replay sends a client only its own
 * account's changes.
 */
export function bindAccount<T extends object>(client: T, account: string): T {
	clientAccounts.set(client, account);
	return client;
}

/** The account a client was bound to; undefined for a client built without one (tests). */
export function accountOfClient(client: object): string | undefined {
	return clientAccounts.get(client);
}

/** Whether a queued or failed change belongs to this account (unstamped ones only to unbound clients). */
export function belongsTo(item: { account?: string }, account: string | undefined): boolean {
	return item.account === account;
}

/** An account as a reader reads it: `reader on http://localhost/tt-rss/api/`. */
export function describeAccount(account: string | undefined): string {
	if (account === undefined) return 'an unknown account';
	const at = account.indexOf('@');
	if (at < 0) return account;
	return `${decodeURIComponent(account.slice(0, at))} on ${account.slice(at + 1)}`;
}
