/** `/tt-rss/` → `/tt-rss/api/`; an address already ending in `api/` is kept. */
export function apiUrlFor(server: string): string {
	const trimmed = server.trim() || '/tt-rss/';
	const withSlash = trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
	return /\/api\/$/.test(withSlash) ? withSlash : `${withSlash}api/`;
}

/** tt-rss sends no CORS headers, so another origin can only fail: say so before trying. */
export function crossOriginWarning(apiUrl: string, origin: string): string | undefined {
	let url: URL;
	try {
		url = new URL(apiUrl, origin);
	} catch {
		return 'This server address is not a valid URL.';
	}
	if (url.origin === origin) return undefined;
	return `tt-rss does not allow web apps on other sites to call it, so this app must be served from ${url.origin} itself (see the deployment guide), or use the server path on this site, such as /tt-rss/.`;
}
