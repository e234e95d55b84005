/**
 * An address of one of the Reader plugin's signed public methods (`image`, `page`): tt-rss's
 * public.php with that method, a URL and a signature. The one shape rule for both (content/url.ts
 * `isImageProxyUrl` is the image's, api/page.ts the page's). Apart from api/page.ts, whose page
 * reader must not ride along with the first screen's rows: no imports.
 */
export function isPluginMethodUrl(url: URL, method: 'image' | 'page'): boolean {
	const q = url.searchParams;
	return (
		url.pathname.endsWith('/public.php') &&
		q.get('op') === 'pluginhandler' &&
		q.get('plugin') === 'reader' &&
		q.get('pmethod') === method &&
		!!q.get('url') &&
		!!q.get('sig')
	);
}
