/**
 * `web+feed:` links opened with the Reader. Chromium reads the manifest's `protocol_handlers` once
 * the app is installed; Firefox (and a Chromium tab that is not installed) needs the page to ask,
 * `navigator.registerProtocolHandler`, which Settings offers where the browser has it. Both name
 * the same address: the subscribe screen, by the folder and a query every server answers.
 */
import { appAddress } from './address';

/** The scheme of feed links (`web+feed:https://example.org/feed.xml`) the app subscribes to. */
export const FEED_PROTOCOL = 'web+feed';

/**
 * The subscribe screen with `%s` (the link, escaped by the browser) as its address to fill in.
 * Here, not in manifest.ts: that module carries every language's words for the build, and the
 * page that offers the handler must not load them.
 */
export const subscribeHandlerPath = (base: string): string =>
	`${appAddress('/subscribe', base)}&url=%s`;

type WithHandlers = Pick<Navigator, 'registerProtocolHandler'>;

/** Whether this browser lets a page offer itself for feed links. */
export function canRegisterFeedLinks(nav: Partial<WithHandlers> | undefined): nav is WithHandlers {
	return typeof nav?.registerProtocolHandler === 'function';
}

/**
 * Asks the browser to open `web+feed:` links with the app at `base` (the app's folder, `''` at the
 * origin's root) on `origin`. The browser confirms with the reader (or keeps it for later); false
 * when it refused (another origin, a browser policy).
 */
export function registerFeedLinks(nav: WithHandlers, origin: string, base: string): boolean {
	try {
		nav.registerProtocolHandler(FEED_PROTOCOL, new URL(subscribeHandlerPath(base), origin).href);
		return true;
	} catch {
		return false;
	}
}
