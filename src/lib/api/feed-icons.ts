/**
 * Where a feed's icon is on the server. The login/getConfig `icons_url` differs by version: 2021
 * servers give a folder (`feed-icons` or an absolute URL) holding `<id>.ico`; current servers give
 * `<self url>/public.php`, which serves `?op=feed_icon&id=<id>`. The address is always put on the
 * API's own origin and path (the app reaches tt-rss there; the server's self URL may name a host
 * the browser cannot reach, behind a proxy).
 */
export function feedIconUrl(iconsUrl: string, apiUrl: string, feedId: number): string | undefined {
	if (feedId <= 0 || !iconsUrl) return undefined;
	// tt-rss's base as the app reaches it: the API address without its `api/`.
	const base = apiUrl.replace(/api\/?$/, '');
	if (/(^|\/)public\.php$/.test(iconsUrl)) return `${base}public.php?op=feed_icon&id=${feedId}`;
	const dir = /^(https?:)?\//.test(iconsUrl) ? iconsUrl : `${base}${iconsUrl}`;
	return `${dir.replace(/\/$/, '')}/${feedId}.ico`;
}
