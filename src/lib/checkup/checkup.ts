/**
 * The server check-up: a plain-language diagnosis of the server address and the account, each
 * finding with the exact setting or step that fixes it. It reads what the API module already
 * found out (error codes, HTTP status, capabilities, getConfig, the feed tree) and never talks to
 * the network itself. Used on the sign-in page after a failed sign-in and in Settings.
 */
import {
	browserApiSetting,
	deriveCapabilities,
	isApiError,
	type Capabilities,
	type FeedTree,
	type TtrssClient
} from '$lib/api';
import { plainFeedError, serverWords } from '$lib/format/feed-health';
import { realFeeds } from '$lib/tree/walk';

/** The newest API level this app knows (current upstream tt-rss, 2026). */
export const LATEST_API_LEVEL = 23;

export type FindingId =
	| 'unreachable'
	| 'other-site'
	| 'no-api-here'
	| 'web-page'
	| 'sign-in-page'
	| 'http-auth'
	| 'not-tt-rss'
	| 'server-failing'
	| 'api-disabled'
	| 'browser-api-disabled'
	| 'wrong-password'
	| 'session-ended'
	| 'signed-in'
	| 'api-level'
	| 'daemon'
	| 'feed-errors'
	| 'unexpected';

export interface Finding {
	id: FindingId;
	/** `ok`: nothing to do; `notice`: works, with limits; `problem`: something must be fixed. */
	verdict: 'ok' | 'notice' | 'problem';
	title: string;
	detail: string;
	/** The exact setting or step that fixes it. */
	fix?: string;
	/** Things listed under the finding (missing features, feeds with errors). */
	items?: string[];
}

const ENABLE_API =
	'In the tt-rss web interface, open Preferences → Preferences → General, turn on "Enable API" (Allows accessing this account through the API), and click Save configuration.';

export interface FailureContext {
	/** The API address tried (absolute or relative to the page). */
	apiUrl: string;
	/** The page's origin, to tell another site (no CORS in tt-rss) from an unreachable one. */
	origin: string;
}

function otherSite(apiUrl: string, origin: string): string | undefined {
	try {
		const url = new URL(apiUrl, origin);
		return url.origin === origin ? undefined : url.origin;
	} catch {
		return undefined;
	}
}

/** The check-up needs the server; offline it can only say so. */
export function offlineFinding(): Finding {
	return {
		id: 'unreachable',
		verdict: 'problem',
		title: 'This device is offline',
		detail: 'The check-up needs a connection to the tt-rss server.',
		fix: 'Connect to the internet, then run the check-up again.'
	};
}

/** What a failed sign-in or call says about the server and the account. */
export function diagnoseFailure(error: unknown, context: FailureContext): Finding {
	if (!isApiError(error)) {
		return {
			id: 'unexpected',
			verdict: 'problem',
			title: 'Something unexpected went wrong',
			detail: 'The check-up could not tell what happened.',
			fix: 'Reload the page and try again.'
		};
	}
	const details = error.details ?? {};
	switch (error.code) {
		case 'OFFLINE':
			return offlineFinding();
		case 'NETWORK':
		case 'TIMEOUT': {
			const site = otherSite(context.apiUrl, context.origin);
			if (site && error.code === 'NETWORK') {
				return {
					id: 'other-site',
					verdict: 'problem',
					title: 'The server is on another site',
					detail: `tt-rss sends no permission for web apps on other sites to call it (no CORS), so a browser cannot use ${site} from here, even when it is up.`,
					fix: `Serve this app from ${site} itself (see the deployment guide), or sign in with the tt-rss path on this site, such as /tt-rss/.`
				};
			}
			return {
				id: 'unreachable',
				verdict: 'problem',
				title:
					error.code === 'TIMEOUT'
						? 'The server did not answer in time'
						: 'The server cannot be reached',
				detail: `Nothing answered at ${context.apiUrl}.`,
				fix: 'Check the address (it is the address of tt-rss, such as https://example.org/tt-rss/), that the web server is running, and that this device can reach it.'
			};
		}
		case 'HTTP_STATUS': {
			const status = error.status ?? 0;
			if (status === 401 && typeof details.authScheme === 'string') {
				return {
					id: 'http-auth',
					verdict: 'problem',
					title: 'The web server asks for HTTP authentication',
					detail: `The server in front of tt-rss answered 401 and asks for "${details.authScheme}" authentication: no request reaches tt-rss until this browser has the right user name and password for it (the browser asks for them; cancelled or wrong, this is the result).`,
					fix: 'Open the server address in this browser and give that user name and password when asked, or exempt the tt-rss API path (/tt-rss/api/) from HTTP authentication in the web server or proxy configuration: tt-rss has its own sign-in.'
				};
			}
			if (status === 401 || status === 403 || status === 407) {
				return {
					id: 'sign-in-page',
					verdict: 'problem',
					title: `A proxy or web server refused access (HTTP ${status})`,
					detail: 'Something in front of tt-rss turned the request away before tt-rss saw it.',
					fix: 'Open the server address in this browser and sign in to the proxy if it asks; or allow the tt-rss API path (/tt-rss/api/) through in its configuration.'
				};
			}
			if (status === 404 || status === 405 || status === 410) {
				return {
					id: 'no-api-here',
					verdict: 'problem',
					title: 'No tt-rss at this address',
					detail: `The web server answered ${status}: there is no tt-rss API at ${context.apiUrl}.`,
					fix: 'Use the address you open tt-rss at in the browser (such as https://example.org/tt-rss/); the app adds api/ itself.'
				};
			}
			return {
				id: 'server-failing',
				verdict: 'problem',
				title: `The server failed (HTTP ${status})`,
				detail:
					status >= 500
						? 'tt-rss or the web server in front of it crashed on the request.'
						: 'The server or a proxy refused the request.',
				fix:
					status >= 500
						? 'Look at the web server error log (and PHP errors) on the server; often the database is down or PHP lacks a module.'
						: 'Check the proxy or web server configuration for the tt-rss path.'
			};
		}
		case 'EMPTY_REPLY':
			return {
				id: 'server-failing',
				verdict: 'problem',
				title: 'tt-rss answered with nothing',
				detail: 'An empty answer usually means tt-rss failed internally (a PHP error).',
				fix: 'Look at the web server error log on the server; often the database is down or PHP lacks a module.'
			};
		case 'HTML_REPLY':
			return details.loginForm === true
				? {
						id: 'sign-in-page',
						verdict: 'problem',
						title: 'A sign-in page answered instead of tt-rss',
						detail:
							'The address returned a web page with a password field: the sign-in page of a proxy or single sign-on service in front of tt-rss (or the tt-rss web interface itself, when the address is not that of tt-rss).',
						fix: 'Let the tt-rss API path (/tt-rss/api/) through the proxy without its sign-in, or open the address in this browser and sign in there first. Check that the address is that of tt-rss, such as https://example.org/tt-rss/.'
					}
				: {
						id: 'web-page',
						verdict: 'problem',
						title: 'A web page answered instead of tt-rss',
						detail: `The address ${context.apiUrl} returned an HTML page, not tt-rss data: another site, an error page, or a default web server page.`,
						fix: 'Check the address: use the one you open tt-rss at in the browser, such as https://example.org/tt-rss/.'
					};
		case 'NOT_JSON':
		case 'BAD_REPLY':
		case 'SEQ_MISMATCH':
		case 'REPLY_TOO_LARGE':
			return {
				id: 'not-tt-rss',
				verdict: 'problem',
				title: 'This is not a tt-rss API',
				detail: 'The server answered, but not the way tt-rss does.',
				fix: 'Check the address: use the one you open tt-rss at in the browser, such as https://example.org/tt-rss/.'
			};
		case 'API_DISABLED':
			return error.op === 'login'
				? {
						id: 'api-disabled',
						verdict: 'problem',
						title: 'API access is off for this account',
						detail:
							'tt-rss answers API_DISABLED: this user may not use apps. (tt-rss says this before it checks the password, so the password may be wrong too.)',
						fix: ENABLE_API
					}
				: {
						id: 'browser-api-disabled',
						verdict: 'problem',
						title: 'API access from web browsers is off',
						detail:
							'Signing in worked, but tt-rss refused the next request from this browser. Newer tt-rss versions refuse API calls made by web browsers unless the account allows them, separately from "Enable API".',
						fix: browserApiSetting()
					};
		case 'LOGIN_ERROR':
			return {
				id: 'wrong-password',
				verdict: 'problem',
				title: 'The user name or password is wrong',
				detail:
					'tt-rss did not accept them. After a failed attempt, newer versions also refuse sign-ins for a few seconds.',
				fix: 'Type them again (the user name is the one of the tt-rss web interface). If you use an app password (Preferences → Personal data / Authentication → App passwords), use that one here.'
			};
		case 'NOT_LOGGED_IN':
		case 'SESSION_ENDED':
			return {
				id: 'session-ended',
				verdict: 'problem',
				title: 'The session on the server has ended',
				detail: 'tt-rss no longer knows this sign-in (it expired, or the password changed).',
				fix: 'Sign in again.'
			};
		default:
			return {
				id: 'unexpected',
				verdict: 'problem',
				title: 'tt-rss reported an error',
				detail: error.userMessage
			};
	}
}

/** Features this app uses that the server's API level lacks, in words. */
const FEATURES: [keyof Capabilities, number, string][] = [
	['feedTree', 5, 'the feed tree in one request (slower feed list)'],
	['subscribe', 5, 'subscribing and unsubscribing (and so OPML import)'],
	['sanitizeHeadlines', 7, 'asking the server not to rewrite article HTML'],
	['noteInHeadlines', 8, 'article notes in lists'],
	['hasSandbox', 10, 'embedded videos (sandboxed frames)'],
	['checkFirstId', 12, 'reliable paging while new articles arrive'],
	['catchupMode', 15, '"mark older than a day / a week as read"'],
	['tagFeeds', 15, 'lists of articles by tag'],
	['scoreField', 16, 'changing an article’s score'],
	['loginConfig', 17, 'extra sort orders'],
	['feedIcon', 19, 'feed icons through the API'],
	['siteUrl', 21, 'the feed’s site address (and site addresses in OPML export)'],
	['catchupSearch', 22, 'marking search results as read'],
	['feedErrors', 23, 'feed update errors and update intervals in the feed list']
];

export function missingFeatures(apiLevel: number): string[] {
	const caps = deriveCapabilities(apiLevel);
	return FEATURES.filter(([flag]) => !caps[flag]).map(
		([, level, words]) => `${words} (level ${level})`
	);
}

export function apiLevelFinding(apiLevel: number): Finding {
	const missing = missingFeatures(apiLevel);
	if (apiLevel >= LATEST_API_LEVEL || missing.length === 0) {
		return {
			id: 'api-level',
			verdict: 'ok',
			title: `The server is current (API level ${apiLevel})`,
			detail: 'Every feature of this app works with it.'
		};
	}
	return {
		id: 'api-level',
		verdict: 'notice',
		title: `The server is older (API level ${apiLevel}; the newest is ${LATEST_API_LEVEL})`,
		detail: 'The app works with it, without these features:',
		items: missing,
		fix: 'Update tt-rss to a current version (tt-rss.org describes the installation; Debian’s package is from 2021).'
	};
}

export function daemonFinding(daemonIsRunning: boolean): Finding {
	return daemonIsRunning
		? {
				id: 'daemon',
				verdict: 'ok',
				title: 'Feeds are being updated',
				detail: 'The tt-rss update daemon is running.'
			}
		: {
				id: 'daemon',
				verdict: 'problem',
				title: 'The update daemon is not running',
				detail:
					'tt-rss reports that its update daemon is not running. Unless the server updates feeds with a scheduled job, no new articles arrive.',
				fix: 'On the server, start the daemon: “systemctl enable --now tt-rss” (Debian’s package), start the updater container (Docker), or run “php update.php --daemon” as the web server user; or run “php update.php --feeds” from cron every few minutes.'
			};
}

export function feedErrorsFinding(tree: FeedTree): Finding {
	const broken = realFeeds(tree).filter((feed) => feed.error);
	if (broken.length === 0) {
		return {
			id: 'feed-errors',
			verdict: 'ok',
			title: 'No feed reports an update error',
			detail: 'Every feed updated without an error the last time the server tried.'
		};
	}
	return {
		id: 'feed-errors',
		verdict: 'problem',
		title: `${broken.length} ${broken.length === 1 ? 'feed fails' : 'feeds fail'} to update`,
		detail: 'The server could not update these feeds the last time it tried:',
		items: broken.map(
			(feed) =>
				`${feed.title}: ${plainFeedError(feed.error ?? '')} The server said: ${serverWords(feed.error ?? '')}`
		),
		fix: 'In the tt-rss web interface, open Preferences → Feeds and edit each of these feeds: check its address (the site may have moved its feed), or unsubscribe from it.'
	};
}

/** The check-up of a signed-in account: server age, update daemon, feeds with errors. */
export async function checkAccount(
	client: TtrssClient,
	context: FailureContext
): Promise<Finding[]> {
	try {
		const caps = await client.detectCapabilities();
		const findings: Finding[] = [apiLevelFinding(caps.apiLevel)];
		const config = await client.getConfig();
		findings.push(daemonFinding(config.daemonIsRunning));
		// getFeedTree carries each feed's last error (level 5+); the fallback has it from level 23.
		if (caps.feedTree || caps.feedErrors) {
			findings.push(feedErrorsFinding(await client.loadFeedTree()));
		}
		return findings;
	} catch (error) {
		return [diagnoseFailure(error, context)];
	}
}
