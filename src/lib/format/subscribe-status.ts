/**
 * subscribeToFeed's codes 0–8 in words, shared by the subscribe screen and the OPML import so a
 * code reads the same wherever it shows.
 */
import type { SubscribeStatus } from '$lib/api';
import { m, type PlainKey } from '$lib/i18n/m';

const KEYS: Record<SubscribeStatus, PlainKey> = {
	'already-subscribed': 'subscribe_already',
	added: 'subscribe_added',
	'invalid-url': 'subscribe_invalid_url',
	'no-feeds-found': 'subscribe_no_feeds',
	'multiple-feeds': 'subscribe_multiple',
	'download-failed': 'subscribe_download_failed',
	'invalid-feed': 'subscribe_invalid_feed',
	'database-error': 'subscribe_database_error',
	'read-only': 'subscribe_read_only',
	unknown: 'subscribe_unknown'
};

/** The words for a status, in the current language. */
export function subscribeStatusText(status: SubscribeStatus): string {
	return m[KEYS[status]]();
}
