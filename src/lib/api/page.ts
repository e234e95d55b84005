/**
 * The article's page for full text (issue 59), through the Reader plugin's page method on tt-rss
 * (package/init.php `page`): tt-rss fetches the page under the image proxy's address rules and
 * answers JSON `{url, html, images}`. The address is the row's `reader_page` (ArticleBase
 * `pageUrl`), signed per user by the server: no session id travels in it. Only an address of the
 * app's own origin is asked (the plugin's public.php beside the API), so the app never makes a
 * cross-origin request for a page, and never asks the page's own servers for anything.
 *
 * No imports but the capped reader and the address rule: this runs in the full-text worker. Failures are `PageError`s
 * with a `problem` the page's screens put into words (state/full-text.ts).
 */
import { isPluginMethodUrl } from './plugin-url';
import { readCapped } from './read-capped';

/** What the plugin answered for a page. */
export interface ArticlePage {
	/** Where the page ended after redirects: the base of its relative addresses. */
	url: string;
	/** The page as UTF-8 text: hostile, never rendered as it is. */
	html: string;
	/** Each image address in the page → its signed image proxy address (content/url.ts). */
	images: Record<string, string>;
}

/**
 * Why no page: the plugin's own refusals (`refused`, `too_large`, `timeout`, `not_html`,
 * `unreachable`: tt-rss could not get it), the way to tt-rss (`offline`, `network`, `slow`: it did
 * not answer in time), `no_plugin` (no signed page address, or one not on the app's origin: the
 * app is served without the plugin), and `bad_reply` (an answer that is not the plugin's: an HTML
 * error page, garbage, an API error envelope, nothing).
 */
export type PageProblem =
	| 'refused'
	| 'too_large'
	| 'timeout'
	| 'not_html'
	| 'unreachable'
	| 'offline'
	| 'network'
	| 'slow'
	| 'no_plugin'
	| 'bad_reply'
	| 'aborted';

export class PageError extends Error {
	override readonly name = 'PageError';
	constructor(
		readonly problem: PageProblem,
		readonly status?: number
	) {
		super(`full text: ${problem}${status !== undefined ? ` (HTTP ${String(status)})` : ''}`);
	}
}

/** The largest reply read: a 5 MB page (the plugin's limit) escaped as JSON, and its images. */
export const PAGE_REPLY_MAX_BYTES = 12 * 1024 * 1024;
/** The plugin gives the page's host 15 s; the answer may take a little longer to come back. */
export const PAGE_TIMEOUT_MS = 25_000;

const REFUSALS: Readonly<Record<string, PageProblem>> = {
	refused: 'refused',
	too_large: 'too_large',
	timeout: 'timeout',
	not_html: 'not_html',
	unreachable: 'unreachable'
};

/**
 * The page address to ask, or why none: only the plugin's page method, only on the app's own
 * origin. tt-rss signs it under its own address (SELF_URL_PATH), which may not be the one the app
 * reaches it by (a reverse proxy, another port): the signed query is asked of `public.php` beside
 * the API the app talks to (`apiUrl`, same-origin as tt-rss has no CORS), never of another origin.
 */
export function pageRequestUrl(
	pageUrl: string | undefined,
	origin: string,
	apiUrl?: string
): string {
	if (!pageUrl) throw new PageError('no_plugin');
	let url: URL;
	try {
		url = new URL(pageUrl);
		if (apiUrl) {
			const beside = new URL('../public.php', new URL(apiUrl, origin));
			beside.search = url.search;
			url = beside;
		}
	} catch {
		throw new PageError('no_plugin');
	}
	if (url.origin !== origin || !isPluginMethodUrl(url, 'page')) throw new PageError('no_plugin');
	return url.href;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The typed boundary of the plugin's reply: a page, a refusal (as PageError), or bad_reply. */
export function parsePageReply(value: unknown, status: number): ArticlePage {
	if (!isRecord(value)) throw new PageError('bad_reply', status);
	if (status !== 200) {
		const problem = typeof value.error === 'string' ? REFUSALS[value.error] : undefined;
		throw new PageError(problem ?? 'bad_reply', status);
	}
	const { url, html, images } = value;
	if (typeof url !== 'string' || typeof html !== 'string' || html === '')
		throw new PageError('bad_reply', status);
	try {
		const base = new URL(url);
		if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('scheme');
	} catch {
		throw new PageError('bad_reply', status);
	}
	const signed: Record<string, string> = {};
	// PHP sends an empty map as [] or {}.
	if (isRecord(images)) {
		for (const [image, proxied] of Object.entries(images)) {
			if (typeof proxied === 'string' && proxied !== '') signed[image] = proxied;
		}
	} else if (!(Array.isArray(images) && images.length === 0)) {
		throw new PageError('bad_reply', status);
	}
	return { url, html, images: signed };
}

export interface FetchPageOptions {
	/** The app's origin (`location.origin`): only a page address there is asked. */
	origin: string;
	/** The API the app talks to (e.g. `/tt-rss/api/`): the page is asked of public.php beside it. */
	apiUrl?: string;
	fetch?: (input: string, init: RequestInit) => Promise<Response>;
	signal?: AbortSignal;
	timeoutMs?: number;
}

function isOffline(): boolean {
	return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Asks the plugin for the article's page (`pageUrl`, the row's `reader_page`). */
export async function fetchArticlePage(
	pageUrl: string | undefined,
	options: FetchPageOptions
): Promise<ArticlePage> {
	const address = pageRequestUrl(pageUrl, options.origin, options.apiUrl);
	if (isOffline()) throw new PageError('offline');
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort();
	}, options.timeoutMs ?? PAGE_TIMEOUT_MS);
	const onAbort = (): void => controller.abort();
	options.signal?.addEventListener('abort', onAbort, { once: true });
	const failed = (): PageError =>
		new PageError(
			options.signal?.aborted ? 'aborted' : timedOut ? 'slow' : isOffline() ? 'offline' : 'network'
		);
	try {
		let response: Response;
		try {
			response = await (options.fetch ?? globalThis.fetch)(address, {
				method: 'GET',
				headers: { Accept: 'application/json' },
				// The signature is the whole authority: no cookie goes with it.
				credentials: 'omit',
				redirect: 'error',
				signal: controller.signal
			});
		} catch {
			throw failed();
		}
		let text: string;
		try {
			const bytes = await readCapped(
				response,
				PAGE_REPLY_MAX_BYTES,
				() => new PageError('too_large', response.status)
			);
			text = new TextDecoder().decode(bytes);
		} catch (error) {
			if (error instanceof PageError) throw error;
			throw failed();
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			// An HTML error page, a proxy's page, garbage, nothing: not the plugin's answer.
			throw new PageError(response.status === 404 ? 'no_plugin' : 'bad_reply', response.status);
		}
		return parsePageReply(parsed, response.status);
	} finally {
		clearTimeout(timer);
		options.signal?.removeEventListener('abort', onAbort);
	}
}
