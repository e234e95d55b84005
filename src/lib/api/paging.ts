/**
 * Paging through a list with `skip` (tt-rss has no cursor). Only the sync, the replay and the
 * tests page whole lists: functions of the client, not methods of its class, which every screen
 * that talks to the server loads.
 */
import type { TtrssClient, OpOptions } from './client';
import type { GetHeadlinesParams } from './params';
import type { Headline, HeadlinesResult } from './types';

export interface PageHeadlinesOptions extends OpOptions {
	/** Page size; capped at the server's limit (60 or 200). */
	pageSize?: number;
	/** How many times paging restarts when new articles arrive at the top (default 3). */
	maxRestarts?: number;
	/** headlinePages: ask for the next page while the caller handles this one. */
	prefetch?: boolean;
	/**
	 * headlinePages with `prefetch`: how many pages may be asked for at once (default 1). Each
	 * is checked against the list's first article as the one before it is (check_first_id), so
	 * only once the first page has named it.
	 */
	inFlight?: number;
	/**
	 * headlinePages with `inFlight`: how many rows the caller expects the list to hold (say, the
	 * counters' unread count). A page is asked for beside another only within it; past it (or
	 * without it) one page is out at a time, so a short list costs no request it does not need.
	 */
	expected?: number;
	/** headlinePages: at most this many rows in all. */
	max?: number;
	/** headlinePages: the clock of `askedAt` (Date.now). */
	now?: () => number;
}

/** One page of headlinePages: its new rows and when it was asked for (ms). */
export interface HeadlinePage {
	rows: Headline[];
	askedAt: number;
}

/**
 * Pages through a feed with `skip`, at most the server's page size at a time. Where the server
 * supports check_first_id (level 12+), paging restarts from the top when new articles arrive,
 * and articles already yielded are not yielded again.
 */
export async function* pageHeadlines(
	client: TtrssClient,
	params: Omit<GetHeadlinesParams, 'skip' | 'limit' | 'includeHeader' | 'checkFirstId'>,
	options: PageHeadlinesOptions = {}
): AsyncGenerator<Headline[], void, undefined> {
	for await (const page of headlinePages(client, params, options)) yield page.rows;
}

/**
 * pageHeadlines' pages with the time each was asked for (`askedAt`, taken as its request
 * starts: never later than the server's read). With `prefetch`, the next page is asked for as
 * soon as a full page arrives, while the caller handles that one (the sync writes it); with
 * `inFlight`, up to that many pages are out at once once the first page named the list's first
 * article (a server answers them side by side: on the test bed two pages took the time of one).
 * Pages are yielded in the list's order, and a page asked for before a restart is never
 * yielded. With `max`, paging stops once that many rows were yielded (the last page cut), and
 * no page is asked for beyond it.
 */
export async function* headlinePages(
	client: TtrssClient,
	params: Omit<GetHeadlinesParams, 'skip' | 'limit' | 'includeHeader' | 'checkFirstId'>,
	options: PageHeadlinesOptions = {}
): AsyncGenerator<HeadlinePage, void, undefined> {
	const caps = await client.detectCapabilities(options);
	const pageSize = Math.max(
		1,
		Math.min(options.pageSize ?? caps.headlineLimit, caps.headlineLimit)
	);
	const maxRestarts = options.maxRestarts ?? 3;
	const max = options.max ?? Infinity;
	const now = options.now ?? Date.now;
	const depth = options.prefetch ? Math.max(1, Math.floor(options.inFlight ?? 1)) : 1;
	const { signal } = options;
	// A request still out when the loop stops (the caller stopped early, a restart, the list's
	// end) is ended by its own controller; one already answered is left alone (ending it would
	// mark it failed).
	const onAbort = (): void => dropAll();
	signal?.addEventListener('abort', onAbort, { once: true });
	const seen = new Set<number>();
	/** Where each article read so far stands in the server's order, as far as a row tells. */
	const places = new Map<number, string>();
	let nextSkip = 0;
	let firstId: number | undefined;
	let restarts = 0;
	let ties = 0;
	interface Out {
		skip: number;
		answer: Promise<{ page: HeadlinesResult; askedAt: number }>;
		controller: AbortController;
		settled: boolean;
	}
	/** The pages asked for and not yet taken, in the list's order. */
	let out: Out[] = [];
	const checking = (): boolean => caps.checkFirstId && restarts < maxRestarts && ties < maxRestarts;
	const ask = (skip: number): Out => {
		const check = checking() && skip > 0;
		const askedAt = now();
		const controller = new AbortController();
		const entry: Out = {
			skip,
			controller,
			settled: false,
			answer: client
				.getHeadlines(
					{
						...params,
						limit: pageSize,
						skip,
						includeHeader: caps.includeHeader,
						checkFirstId: check ? firstId : undefined
					},
					{ ...options, signal: controller.signal }
				)
				.then((page) => ({ page, askedAt }))
		};
		// Handled where it is awaited; a page dropped unanswered must not be reported unhandled.
		const settled = (): void => {
			entry.settled = true;
		};
		entry.answer.then(settled, settled);
		return entry;
	};
	function dropAll(): void {
		for (const entry of out) if (!entry.settled) entry.controller.abort(signal?.reason);
		out = [];
	}
	/** Asks for the next pages, up to `depth` out; none beyond `max`, and none unchecked. */
	const fill = (): void => {
		while (out.length < depth && seen.size + out.length * pageSize < max) {
			// Beside another page only where the list is expected to go on.
			if (out.length > 0 && nextSkip >= (options.expected ?? 0)) return;
			// A page after the first is checked against the first's first article: not asked for
			// until the first page named it (where the server checks at all).
			if (out.length > 0 && checking() && firstId === undefined) return;
			out.push(ask(nextSkip));
			nextSkip += pageSize;
		}
	};
	try {
		signal?.throwIfAborted();
		fill();
		for (;;) {
			// Taken off the queue once answered: until then a stop ends it with the others.
			const entry = out[0];
			if (!entry) return;
			const { page, askedAt } = await entry.answer;
			signal?.throwIfAborted();
			out.shift();
			if (page.header?.firstIdChanged) {
				// tt-rss picks "the first article" with its list's order (score, then date_entered,
				// then updated) and nothing to break a tie: among articles fetched together it
				// names one or another from one request to the next, and then says the list
				// changed when nothing did (seen with the bench's 1,000 articles: the first
				// sync restarted three times and read 13 pages instead of 5). An article
				// already read, in the same place of the order as the one named before, is such
				// a tie: the same page is asked for again, checked against the new name. The
				// pages asked for after it were checked against the old name: asked again too.
				const top = page.header.firstId;
				dropAll();
				if (
					top !== undefined &&
					firstId !== undefined &&
					top !== firstId &&
					places.has(top) &&
					places.get(top) === places.get(firstId)
				) {
					ties++;
					firstId = top;
					nextSkip = entry.skip;
				} else {
					restarts++;
					nextSkip = 0;
					firstId = undefined;
				}
				fill();
				continue;
			}
			if (entry.skip === 0) firstId = page.header?.firstId;
			for (const h of page.headlines) places.set(h.id, `${h.score}/${h.updated}`);
			const fresh = page.headlines
				.filter((h) => !seen.has(h.id))
				.slice(0, Math.max(0, max - seen.size));
			for (const h of fresh) seen.add(h.id);
			const more = page.headlines.length >= pageSize && seen.size < max;
			// The list ended here: pages asked for beyond it are not needed.
			if (!more) dropAll();
			// The next pages are asked for before this one is handed over (and after `seen` and
			// `firstId` say which they are): the caller's work on this one overlaps them.
			else if (options.prefetch) fill();
			if (fresh.length > 0) yield { rows: fresh, askedAt };
			if (!more) return;
			signal?.throwIfAborted();
			if (!options.prefetch) fill();
		}
	} finally {
		signal?.removeEventListener('abort', onAbort);
		dropAll();
	}
}
