/**
 * Paging through a list with `skip` (tt-rss has no cursor). Only the sync, the replay and the
 * tests page whole lists: functions of the client, not methods of its class, which every screen
 * that talks to the server loads.
 */
import type { TtrssClient, OpOptions } from './client';
import type { GetHeadlinesParams } from './params';
import type { Headline, HeadlinesResult } from './types';

export interface PageHeadlinesOptions extends OpOptions {
	/** Page size; capped at the server's limit (60 or 200), at least 2 (one row overlaps). */
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
	/**
	 * headlinePages: the list shifted under the reading in a way it could not bridge (see
	 * `headlinePages`): a row present all along may be missing, so the rows read say nothing
	 * about the rows not read. Called once, before the pages go on.
	 */
	onShifted?: () => void;
}

/** One page of headlinePages: its new rows and when it was asked for (ms). */
export interface HeadlinePage {
	rows: Headline[];
	askedAt: number;
}

/**
 * Rows asked for by the bridges after a page that does not join the one before it (see
 * headlinePages): a few rows first (the common shift is an article or two read meanwhile), then
 * the page's whole stride.
 */
export const BRIDGE_ROWS = [10, Infinity] as const;

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
 *
 * Every page after the first starts on the row the page before it ended with (`skip` moves by
 * the page size less one), so a shift of the list between two pages shows. An article that
 * leaves the list (read elsewhere, or by the reader's own replay) moves every later row up one
 * place; without the overlap, the row that moved across the boundary would never be read. On
 * PostgreSQL tt-rss's order is total (score, date_entered, updated, then the id its `DISTINCT
 * ON` adds), so with nothing changed a page's first row is the last row read.
 * - A page *joins* when its first row was read already (or it is the list's top).
 * - One that does not (its first row is new, or it is empty: the list shrank above it) is held,
 *   and a *bridge* is asked for first: a few rows ending where the page began (`BRIDGE_ROWS`,
 *   then the whole stride). When the bridge starts on a row read already and holds the page's
 *   first row, nothing was skipped, and the rows the shift had moved up come with it; when the
 *   list moved again meanwhile, paging goes on from the bridge's last row.
 * - A page that starts on a row read earlier than the last one: rows came in above it (or one
 *   moved up from below its boundary, and it would be missed).
 * A bridge that cannot join, or rows that came in, make `onShifted` say that the rows read are
 * not the whole list (an absent row proves nothing); the pages go on, without more bridges.
 * New articles at the top are check_first_id's (a restart, level 12+); below level 12 they are
 * rows that came in. A server on MySQL breaks no tie: a page may then not join for nothing, and
 * costs a bridge (or counts as shifted), never a row.
 */
export async function* headlinePages(
	client: TtrssClient,
	params: Omit<GetHeadlinesParams, 'skip' | 'limit' | 'includeHeader' | 'checkFirstId'>,
	options: PageHeadlinesOptions = {}
): AsyncGenerator<HeadlinePage, void, undefined> {
	const caps = await client.detectCapabilities(options);
	const pageSize = Math.max(
		2,
		Math.min(options.pageSize ?? caps.headlineLimit, caps.headlineLimit)
	);
	/** How far `skip` moves from one page to the next: one row overlaps. */
	const stride = pageSize - 1;
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
	/** Every row of the pages joined so far (a bridge's too): where a later page may start. */
	const seen = new Set<number>();
	/** Where each article read so far stands in the server's order, as far as a row tells. */
	const places = new Map<number, string>();
	let nextSkip = 0;
	let firstId: number | undefined;
	let restarts = 0;
	let ties = 0;
	/** The last row of the last page joined: the row the next page should start with. */
	let lastId: number | undefined;
	let shifted = false;
	const shift = (): void => {
		if (shifted) return;
		shifted = true;
		options.onShifted?.();
	};
	interface Out {
		skip: number;
		limit: number;
		answer: Promise<{ page: HeadlinesResult; askedAt: number }>;
		controller: AbortController;
		settled: boolean;
	}
	interface Answered {
		entry: Out;
		rows: Headline[];
		askedAt: number;
	}
	/** The pages asked for and not yet taken, in the list's order (a bridge before its page). */
	let out: Out[] = [];
	/** A page that did not join, held while its bridge is out. */
	let held: Answered | undefined;
	/** Bridges asked for the boundary being crossed (at most `BRIDGE_ROWS.length`). */
	let bridges = 0;
	const checking = (): boolean => caps.checkFirstId && restarts < maxRestarts && ties < maxRestarts;
	const ask = (skip: number, limit = pageSize): Out => {
		const check = checking() && skip > 0;
		const askedAt = now();
		const controller = new AbortController();
		const entry: Out = {
			skip,
			limit,
			controller,
			settled: false,
			answer: client
				.getHeadlines(
					{
						...params,
						limit,
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
	/** The most new rows the pages out may bring: all of the first, all but the overlap after. */
	const reach = (): number => out.reduce((n, e) => n + (e.skip === 0 ? e.limit : e.limit - 1), 0);
	/** Asks for the next pages, up to `depth` out; none beyond `max`, and none unchecked. */
	const fill = (): void => {
		while (out.length < depth && seen.size + reach() < max) {
			// Beside another page only where the list is expected to go on past the overlap row.
			if (out.length > 0 && nextSkip + 1 >= (options.expected ?? 0)) return;
			// A page after the first is checked against the first's first article: not asked for
			// until the first page named it (where the server checks at all).
			if (out.length > 0 && checking() && firstId === undefined) return;
			out.push(ask(nextSkip));
			nextSkip += stride;
		}
	};
	/**
	 * A page that does not join: held while a bridge is asked for, first in line (the next of
	 * `BRIDGE_ROWS` before the page, ending on the row it began with); once the boundary had
	 * them all, the list counts as shifted and the page is taken as it is (false).
	 */
	const bridge = (page: Answered): boolean => {
		const rows = BRIDGE_ROWS[bridges];
		if (rows === undefined) {
			shift();
			return false;
		}
		bridges++;
		held = page;
		const skip = Math.max(0, page.entry.skip - Math.min(rows, stride));
		out.unshift(ask(skip, page.entry.skip - skip + 1));
		return true;
	};
	/** Whether a page's rows join those read: its first row was read, or it is the list's top. */
	const joins = ({ entry, rows }: Answered): boolean =>
		entry.skip === 0 || (rows[0] !== undefined && seen.has(rows[0].id));
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
				// pages asked for after it were checked against the old name: asked again too
				// (a bridge's held page in its place).
				const top = page.header.firstId;
				const from = held?.entry.skip ?? entry.skip;
				held = undefined;
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
					nextSkip = from;
				} else {
					restarts++;
					nextSkip = 0;
					firstId = undefined;
					lastId = undefined;
					bridges = 0;
				}
				fill();
				continue;
			}
			if (entry.skip === 0) firstId = page.header?.firstId;
			for (const h of page.headlines) places.set(h.id, `${h.score}/${h.updated}`);
			const answered: Answered = { entry, rows: page.headlines, askedAt };
			/** The pages taken now, in the list's order. */
			let taken: Answered[];
			if (held) {
				// `answered` is the held page's bridge.
				const waiting = held;
				held = undefined;
				if (!joins(answered)) {
					// More rows left than the bridge spans: a wider one, or the page as it is.
					if (bridge(waiting)) continue;
					taken = [waiting];
				} else {
					const ended = answered.rows.length < entry.limit;
					const start = waiting.rows[0]?.id;
					if (ended) taken = [answered];
					else if (start !== undefined && answered.rows.some((h) => h.id === start)) {
						taken = [answered, waiting];
						bridges = 0;
					} else {
						// The list moved again between the page and its bridge: on from the bridge's
						// last row (the same boundary, its bridges counted), the pages out after the
						// held one asked for again.
						dropAll();
						nextSkip = entry.skip + answered.rows.length - 1;
						taken = [answered];
					}
				}
			} else if (!shifted && !joins(answered)) {
				// The list shrank above this page: a row may have moved up across its boundary.
				if (bridge(answered)) continue;
				taken = [answered];
			} else {
				// Starting on a row read before the last one: rows came in above (or one moved up
				// from below, and it would be missed).
				const first = answered.rows[0]?.id;
				if (entry.skip > 0 && first !== undefined && first !== lastId) shift();
				taken = [answered];
				bridges = 0;
			}
			const pages: HeadlinePage[] = [];
			for (const { rows, askedAt: at } of taken) {
				const fresh = rows.filter((h) => !seen.has(h.id)).slice(0, Math.max(0, max - seen.size));
				for (const h of fresh) seen.add(h.id);
				if (fresh.length > 0) pages.push({ rows: fresh, askedAt: at });
			}
			const last = taken[taken.length - 1];
			lastId = last?.rows.at(-1)?.id ?? lastId;
			const more = last !== undefined && last.rows.length >= last.entry.limit && seen.size < max;
			// The list ended here: pages asked for beyond it are not needed.
			if (!more) dropAll();
			// The next pages are asked for before this one is handed over (and after `seen` and
			// `firstId` say which they are): the caller's work on this one overlaps them.
			else if (options.prefetch) fill();
			for (const p of pages) yield p;
			if (!more) return;
			signal?.throwIfAborted();
			if (!options.prefetch) fill();
		}
	} finally {
		signal?.removeEventListener('abort', onAbort);
		dropAll();
	}
}
