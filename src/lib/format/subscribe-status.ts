/**
 * subscribeToFeed's codes 0–8 in words, shared by the subscribe screen and the OPML import so a
 * code reads the same wherever it shows.
 */
import type { SubscribeStatus } from '$lib/api';

export const SUBSCRIBE_STATUS_TEXT: Record<SubscribeStatus, string> = {
	'already-subscribed': 'You are already subscribed to this feed.',
	added: 'Subscribed. The first articles arrive when tt-rss next updates the feed.',
	'invalid-url': 'That address is not a valid URL.',
	'no-feeds-found': 'No feed was found on that page.',
	'multiple-feeds': 'That page offers several feeds. Choose one:',
	'download-failed': 'tt-rss could not download that address.',
	'invalid-feed': 'That address did not return a feed tt-rss can read.',
	'database-error': 'tt-rss could not save the subscription (database error).',
	'read-only': 'This account is read-only: it cannot subscribe to feeds.',
	unknown: 'tt-rss answered with an unexpected status.'
};
