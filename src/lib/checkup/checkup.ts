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
import { plainFeedError } from '$lib/format/feed-error';
import { serverWords } from '$lib/format/feed-health';
import { m, type PlainKey } from '$lib/i18n/m';
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
	| 'versions'
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
		title: m.checkup_offline_title(),
		detail: m.checkup_offline_detail(),
		fix: m.checkup_offline_fix()
	};
}

/** What a failed sign-in or call says about the server and the account. */
export function diagnoseFailure(error: unknown, context: FailureContext): Finding {
	if (!isApiError(error)) {
		return {
			id: 'unexpected',
			verdict: 'problem',
			title: m.checkup_unexpected_title(),
			detail: m.checkup_unexpected_detail(),
			fix: m.checkup_unexpected_fix()
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
					title: m.checkup_other_site_title(),
					detail: m.checkup_other_site_detail({ site }),
					fix: m.checkup_other_site_fix({ site })
				};
			}
			return {
				id: 'unreachable',
				verdict: 'problem',
				title: error.code === 'TIMEOUT' ? m.checkup_timeout_title() : m.checkup_unreachable_title(),
				detail: m.checkup_unreachable_detail({ url: context.apiUrl }),
				fix: m.checkup_unreachable_fix()
			};
		}
		case 'HTTP_STATUS': {
			const status = error.status ?? 0;
			if (status === 401 && typeof details.authScheme === 'string') {
				return {
					id: 'http-auth',
					verdict: 'problem',
					title: m.checkup_http_auth_title(),
					detail: m.checkup_http_auth_detail({ scheme: details.authScheme }),
					fix: m.checkup_http_auth_fix()
				};
			}
			if (status === 401 || status === 403 || status === 407) {
				return {
					id: 'sign-in-page',
					verdict: 'problem',
					title: m.checkup_proxy_refused_title({ status }),
					detail: m.checkup_proxy_refused_detail(),
					fix: m.checkup_proxy_refused_fix()
				};
			}
			if (status === 404 || status === 405 || status === 410) {
				return {
					id: 'no-api-here',
					verdict: 'problem',
					title: m.checkup_no_api_title(),
					detail: m.checkup_no_api_detail({ status, url: context.apiUrl }),
					fix: m.checkup_no_api_fix()
				};
			}
			return {
				id: 'server-failing',
				verdict: 'problem',
				title: m.checkup_server_failed_title({ status }),
				detail:
					status >= 500 ? m.checkup_server_crashed_detail() : m.checkup_server_refused_detail(),
				fix: status >= 500 ? m.checkup_server_crashed_fix() : m.checkup_server_refused_fix()
			};
		}
		case 'EMPTY_REPLY':
			return {
				id: 'server-failing',
				verdict: 'problem',
				title: m.checkup_empty_title(),
				detail: m.checkup_empty_detail(),
				fix: m.checkup_empty_fix()
			};
		case 'HTML_REPLY':
			return details.loginForm === true
				? {
						id: 'sign-in-page',
						verdict: 'problem',
						title: m.checkup_sign_in_page_title(),
						detail: m.checkup_sign_in_page_detail(),
						fix: m.checkup_sign_in_page_fix()
					}
				: {
						id: 'web-page',
						verdict: 'problem',
						title: m.checkup_web_page_title(),
						detail: m.checkup_web_page_detail({ url: context.apiUrl }),
						fix: m.checkup_check_address_fix()
					};
		case 'NOT_JSON':
		case 'BAD_REPLY':
		case 'SEQ_MISMATCH':
		case 'REPLY_TOO_LARGE':
			return {
				id: 'not-tt-rss',
				verdict: 'problem',
				title: m.checkup_not_ttrss_title(),
				detail: m.checkup_not_ttrss_detail(),
				fix: m.checkup_check_address_fix()
			};
		case 'API_DISABLED':
			return error.op === 'login'
				? {
						id: 'api-disabled',
						verdict: 'problem',
						title: m.checkup_api_off_title(),
						detail: m.checkup_api_off_detail(),
						fix: m.checkup_enable_api()
					}
				: {
						id: 'browser-api-disabled',
						verdict: 'problem',
						title: m.checkup_browser_api_off_title(),
						detail: m.checkup_browser_api_off_detail(),
						fix: browserApiSetting()
					};
		case 'LOGIN_ERROR':
			return {
				id: 'wrong-password',
				verdict: 'problem',
				title: m.checkup_wrong_password_title(),
				detail: m.checkup_wrong_password_detail(),
				fix: m.checkup_wrong_password_fix()
			};
		case 'NOT_LOGGED_IN':
		case 'SESSION_ENDED':
			return {
				id: 'session-ended',
				verdict: 'problem',
				title: m.checkup_session_title(),
				detail: m.checkup_session_detail(),
				fix: m.checkup_session_fix()
			};
		default:
			return {
				id: 'unexpected',
				verdict: 'problem',
				title: m.checkup_server_error_title(),
				detail: error.userMessage
			};
	}
}

/** Features this app uses that the server's API level lacks, in words. */
const FEATURES: [keyof Capabilities, number, PlainKey][] = [
	['feedTree', 5, 'checkup_feature_feed_tree'],
	['subscribe', 5, 'checkup_feature_subscribe'],
	['sanitizeHeadlines', 7, 'checkup_feature_sanitize'],
	['noteInHeadlines', 8, 'checkup_feature_notes'],
	['hasSandbox', 10, 'checkup_feature_sandbox'],
	['checkFirstId', 12, 'checkup_feature_first_id'],
	['catchupMode', 15, 'checkup_feature_catchup_mode'],
	['tagFeeds', 15, 'checkup_feature_tag_feeds'],
	['scoreField', 16, 'checkup_feature_score'],
	['loginConfig', 17, 'checkup_feature_login_config'],
	['feedIcon', 19, 'checkup_feature_feed_icon'],
	['siteUrl', 21, 'checkup_feature_site_url'],
	['catchupSearch', 22, 'checkup_feature_catchup_search'],
	['feedErrors', 23, 'checkup_feature_feed_errors']
];

export function missingFeatures(apiLevel: number): string[] {
	const caps = deriveCapabilities(apiLevel);
	return FEATURES.filter(([flag]) => !caps[flag]).map(([, level, words]) =>
		m.checkup_feature_level({ feature: m[words](), level })
	);
}

export function apiLevelFinding(apiLevel: number): Finding {
	const missing = missingFeatures(apiLevel);
	if (apiLevel >= LATEST_API_LEVEL || missing.length === 0) {
		return {
			id: 'api-level',
			verdict: 'ok',
			title: m.checkup_current_title({ level: apiLevel }),
			detail: m.checkup_current_detail()
		};
	}
	return {
		id: 'api-level',
		verdict: 'notice',
		title: m.checkup_older_title({ level: apiLevel, latest: LATEST_API_LEVEL }),
		detail: m.checkup_older_detail(),
		items: missing,
		fix: m.checkup_older_fix()
	};
}

export function daemonFinding(daemonIsRunning: boolean): Finding {
	return daemonIsRunning
		? {
				id: 'daemon',
				verdict: 'ok',
				title: m.checkup_daemon_ok_title(),
				detail: m.checkup_daemon_ok_detail()
			}
		: {
				id: 'daemon',
				verdict: 'problem',
				title: m.checkup_daemon_off_title(),
				detail: m.checkup_daemon_off_detail(),
				fix: m.checkup_daemon_off_fix()
			};
}

export function feedErrorsFinding(tree: FeedTree): Finding {
	const broken = realFeeds(tree).filter((feed) => feed.error);
	if (broken.length === 0) {
		return {
			id: 'feed-errors',
			verdict: 'ok',
			title: m.checkup_feeds_ok_title(),
			detail: m.checkup_feeds_ok_detail()
		};
	}
	return {
		id: 'feed-errors',
		verdict: 'problem',
		title: m.checkup_feeds_failing_title({ count: broken.length }),
		detail: m.checkup_feeds_failing_detail(),
		items: broken.map((feed) =>
			m.checkup_feed_failing_item({
				feed: feed.title,
				why: plainFeedError(feed.error ?? ''),
				words: serverWords(feed.error ?? '')
			})
		),
		fix: m.checkup_feeds_failing_fix()
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
