/**
 * The addresses the app hands out (the manifest's shortcuts and handlers, notifications) in a form
 * every server answers with the app: the app's folder and a query, `<base>/?to=/feed/6/123`.
 *
 * Installed as the release archive, the app is static files under a server with no single-page
 * fallback (tt-rss's nginx, Debian's Apache): a deep path such as `<base>/feed/6/123` is the
 * server's 404 wherever the app's worker is not installed (another device, site data cleared,
 * Shift+Reload). The folder is always answered with `index.html` (or index.php), and the start
 * (hooks.client.ts) turns the query back into the path before the router reads it.
 *
 * Imported by the start: small, no imports.
 */

/**
 * Whether this is the archive's build (PORTABLE=1): its servers have no single-page fallback, so
 * the address bar keeps this form while no worker answers the paths (routes/+layout.svelte).
 */
export const PORTABLE_BUILD: boolean = __READER_PORTABLE__;

/** The query key naming the app's own path. */
export const TO = 'to';

/** The share target's keys: a share opened at the folder itself goes to the share screen. */
const SHARED = ['title', 'text', 'url'] as const;

/**
 * `path` (the app's route, `/feed/6/123`, with or without a query of its own) as an address below
 * `base` (`''`, `/reader`, or the portable build's folder) that opens it anywhere.
 */
export function appAddress(path: string, base: string): string {
	const [route = '/', query = ''] = path.split(/\?(.*)/s, 2);
	const params = new URLSearchParams(query);
	const out = new URLSearchParams({ [TO]: route.startsWith('/') ? route : `/${route}` });
	for (const [key, value] of params) if (key !== TO) out.append(key, value);
	// `/` and `,` stay readable: the address is for people as well (a notification's, a link's).
	return `${base}/?${out.toString().replace(/%2F/g, '/')}`;
}

/** A path the app may open: its own, never another origin's (`//host`) or a scheme. */
function ownPath(value: string): boolean {
	return /^\/(?![/\\])[^\s\\]*$/.test(value) && !value.includes('..');
}

/**
 * The app's path (with its own query) that a start address of the folder names, or undefined when
 * it names none: `?to=/feed/6/123` → `/feed/6/123`; `?to=/subscribe&url=…` → `/subscribe?url=…`;
 * a share opened at the folder (`?title=…&text=…&url=…`, the share target's keys) → `/share?…`.
 * `search` is `location.search`; only the folder itself is read (`startPath` `/`).
 */
export function pathFromQuery(startPath: string, search: string): string | undefined {
	if (startPath !== '/' || search.length < 2) return undefined;
	const params = new URLSearchParams(search);
	const to = params.get(TO);
	params.delete(TO);
	const rest = params.toString();
	const withRest = (route: string) => (rest ? `${route}?${rest}` : route);
	if (to !== null) return to !== '/' && ownPath(to) ? withRest(to) : undefined;
	if (SHARED.some((key) => params.has(key))) return withRest('/share');
	return undefined;
}
