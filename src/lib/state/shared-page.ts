/** What another app shared to this one (Web Share Target: `?title=&text=&url=`). */
export interface SharedPage {
	title: string;
	url: string;
	text: string;
}

/**
 * Reads a share-target query. Many apps put the link in `text` rather than `url`, so the first
 * http(s) link found there is used when `url` is empty, and removed from the text.
 */
export function sharedPageFrom(params: URLSearchParams): SharedPage {
	const title = (params.get('title') ?? '').trim();
	let url = (params.get('url') ?? '').trim();
	let text = (params.get('text') ?? '').trim();
	if (!isHttpUrl(url)) {
		const found = /https?:\/\/[^\s<>"]+/.exec(text)?.[0] ?? '';
		url = isHttpUrl(found) ? found : '';
		if (url) text = text.replace(found, '').trim();
	}
	return { title: title || url, url, text };
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}
