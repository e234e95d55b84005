/**
 * The replay's requests: a planned call (replay-plan.ts) sent with the client. The article calls
 * send their parameters; a catch-up and a share decide theirs when sent, from what the server
 * has then (see sendCatchup, sendShare), and note the attempt first (replay-records.ts).
 */
import { ArticleField, SPECIAL_FEED, UpdateMode, type Headline, type TtrssClient } from '$lib/api';
import { pageHeadlines } from '$lib/api/paging';
import type { OutboxItem } from '$lib/db/schema';
import { withinCatchup } from './effect';
import type { CatchupIntent, Intent } from './intent';
import { attemptedAt, doubtMarksUnread, markAttempted } from './replay-records';
import { chunk, existedThen, MAX_IDS_PER_CALL, type PlannedCall } from './replay-plan';

/** A catch-up replayed by ids reads at most this many pages of the scope's unread headlines. */
export const MAX_CATCHUP_PAGES = 50;
/** A catch-up sent within this time of being made covers its scope as it is (see sendCatchup). */
export const FRESH_MS = 60_000;

type ShareIntent = Extract<Intent, { type: 'share' }>;

/** Sends one planned call; `now` tells the time it is sent at (a catch-up judges its freshness then). */
export async function sendCall(
	client: TtrssClient,
	call: PlannedCall,
	now: () => number
): Promise<void> {
	switch (call.op) {
		case 'updateArticle':
			await client.updateArticle(call.params);
			return;
		case 'setArticleLabel':
			await client.setArticleLabel(call.params);
			return;
		case 'catchupFeed':
			return sendCatchup(client, call.item, call.intent, now);
		case 'shareToPublished':
			return sendShare(client, call.item, call.intent, now());
		case 'sharedSettings':
			// The plugin merges per key (the later change wins): sending twice is harmless.
			await client.sharedSettings(call.put);
			return;
	}
}

/**
 * A catch-up covers what the reader could see when they made it (`withinCatchup`: ids up to
 * `maxId`, and for the age modes the article date the reader's list used), however late it is
 * sent. Sent at the first try and within FRESH_MS, the scope is still what the reader saw (their
 * list and counters were current; articles of one feed update get ids in feed order, so unloaded
 * older rows can have higher ids than the loaded ones): the bound is now. Sent later, or again
 * after a try that did not get through (offline), `maxId` bounds it.
 * catchupFeed is exact only when nothing newer arrived in the scope and the mode is `all` (the
 * server's age modes count from the date it stored the article, which the reader never saw): then
 * one call does it. Otherwise the scope's unread headlines (with the list's search) are read and
 * exactly the covered ones are marked read by id. Paging is bounded (MAX_CATCHUP_PAGES); marking
 * by id with an absolute target stays harmless when a reply is lost and it is sent again.
 */
async function sendCatchup(
	client: TtrssClient,
	item: OutboxItem,
	made: CatchupIntent,
	now: () => number
): Promise<void> {
	const madeAt = made.at ?? now();
	const inTime = (): boolean => now() - madeAt < FRESH_MS;
	// Made offline, the reader's list may not have been current (and a held one was not even
	// tried while it waited): bounded by what they saw, as a late one.
	const tried = item.attemptedAt ?? (await attemptedAt(item));
	const fresh = inTime() && made.offline !== true && tried === undefined;
	// That earlier send may still land: a mark unread made since is sent again after it.
	if (tried !== undefined) await doubtMarksUnread(item, tried);
	await markAttempted(item, now());
	const intent: CatchupIntent = fresh ? { ...made, maxId: undefined } : made;
	const caps = await client.detectCapabilities();
	const scope = {
		feedId: intent.feedId,
		isCat: intent.isCat,
		...(intent.isCat ? { includeNested: true } : {}),
		...(intent.search
			? { search: intent.search, searchMode: intent.searchMode ?? 'this_feed' }
			: {})
	};
	// The server's search_query (level 22) searches within the feed itself: only for that mode.
	const serverSearch =
		!intent.search || (caps.catchupSearch && (intent.searchMode ?? 'this_feed') === 'this_feed');
	// Articles it spares (marked unread, not in the reader's list) rule out the one-call shortcut.
	if (intent.mode === 'all' && serverSearch && !intent.spare?.length) {
		const exact =
			intent.maxId === undefined ||
			(
				await client.getHeadlines({
					...scope,
					viewMode: 'unread',
					sinceId: intent.maxId,
					limit: 1
				})
			).headlines.length === 0;
		if (exact) {
			try {
				await client.catchupFeed(
					{
						feedId: intent.feedId,
						isCat: intent.isCat,
						mode: 'all',
						...(intent.search ? { searchQuery: intent.search } : {})
					},
					// The session had ended: after the re-login, a fresh one is sent again only if still
					// in time, a bounded one only after checking again for newer articles.
					{
						beforeRetry: () => {
							if (!fresh || !inTime()) throw new LateCatchup();
						}
					}
				);
			} catch (error) {
				// Attempted now: bounded by what the reader saw, as any late one.
				if (error instanceof LateCatchup) return sendCatchup(client, item, made, now);
				throw error;
			}
			return;
		}
	}
	const unread: Headline[] = [];
	let pages = 0;
	for await (const page of pageHeadlines(client, { ...scope, viewMode: 'unread' })) {
		unread.push(...page);
		if (++pages >= MAX_CATCHUP_PAGES) break;
	}
	const existed = existedThen(intent, unread);
	const unbounded: CatchupIntent = { ...intent, maxId: undefined };
	const ids = unread
		.filter((h) => existed.has(h.id) && withinCatchup(unbounded, h))
		.map((h) => h.id);
	for (const part of chunk(ids, MAX_IDS_PER_CALL)) {
		await client.updateArticle({
			articleIds: part,
			field: ArticleField.Unread,
			mode: UpdateMode.False
		});
	}
}

/**
 * A catch-up's one-call shortcut to be sent again after a re-login: fresh, but past FRESH_MS now;
 * or bounded, and its check for newer articles is older than the re-login.
 */
class LateCatchup extends Error {}

const plain = (text: string): string =>
	text
		.replace(/<[^>]*>/g, '')
		.replace(/\s+/g, ' ')
		.trim();

/**
 * A share sent again after its reply was lost would be published twice. So the item is marked as
 * attempted before it is sent; an attempted share is first looked for in Published (the newest
 * page: a share is published at the top), by its URL and title, and confirmed without sending
 * when it is there.
 */
async function sendShare(
	client: TtrssClient,
	item: OutboxItem,
	intent: ShareIntent,
	at: number
): Promise<void> {
	if (item.attemptedAt !== undefined || (await attemptedAt(item)) !== undefined) {
		const { headlines } = await client.getHeadlines({
			feedId: SPECIAL_FEED.published,
			viewMode: 'all_articles',
			limit: (await client.detectCapabilities()).headlineLimit
		});
		if (headlines.some((h) => h.link === intent.url && plain(h.title) === plain(intent.title))) {
			return;
		}
	}
	await markAttempted(item, at);
	await client.shareToPublished({ title: intent.title, url: intent.url, content: intent.content });
}
