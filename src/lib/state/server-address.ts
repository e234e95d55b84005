import { m } from '$lib/i18n/m';

/** Where tt-rss is when the app is not inside its tree: the proxied path of `npm start` and deploy/. */
export const PROXIED_SERVER = '/tt-rss/';

/**
 * The tt-rss address the sign-in form starts with. Unpacked as a tt-rss plugin
 * (`…/plugins.local/reader/`, or `…/plugins/reader/`), tt-rss is the folder above `plugins.local`;
 * anywhere else it is the proxied `/tt-rss/`.
 * @param appBase the app's base path ('' or e.g. `/tt-rss/plugins.local/reader`)
 */
export function defaultServer(appBase: string): string {
	const inside = /^(.*\/)plugins(?:\.local)?\/[^/]+\/?$/.exec(appBase);
	return inside ? (inside[1] as string) : PROXIED_SERVER;
}

/** `/tt-rss/` → `/tt-rss/api/`; an address already ending in `api/` is kept. */
export function apiUrlFor(server: string): string {
	const trimmed = server.trim() || PROXIED_SERVER;
	const withSlash = trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
	return /\/api\/$/.test(withSlash) ? withSlash : `${withSlash}api/`;
}

/** tt-rss sends no CORS headers, so another origin can only fail: say so before trying. */
export function crossOriginWarning(apiUrl: string, origin: string): string | undefined {
	let url: URL;
	try {
		url = new URL(apiUrl, origin);
	} catch {
		return m.login_warning_invalid_url();
	}
	if (url.origin === origin) return undefined;
	return m.login_warning_cross_origin({ origin: url.origin });
}
