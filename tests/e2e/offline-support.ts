/**
 * Helpers for the offline-*.spec.ts files: sign-in, cutting the network (pages AND the service
 * worker), reading the app's IndexedDB, and checking the server's state over Node's fetch.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { apiBody } from './support/fixtures';
import { type Headline } from '../../src/lib/api';
import {
	listAnswered,
	openFeed as openFeedFromTree,
	serverClient,
	signIn as signInWithForm
} from './reader-support';
import { pageHeadlines } from '../../src/lib/api/paging';

export { serverClient };

export const BIG_FEED = 'Testbed Big Feed (320 items)';
export const BIG_FEED_ID = 6;
const API_ROUTE = '**/tt-rss/api/**';

/** Signs in (reader-support.ts), staying signed in unless told, and waits for the worker. */
export async function signIn(page: Page, stayingSignedIn = true): Promise<void> {
	await signInWithForm(page, { stay: stayingSignedIn, worker: true });
}

/** Opens a feed (the big one unless told) and waits for the server's answer. */
export async function openFeed(page: Page, title = BIG_FEED): Promise<void> {
	await openFeedFromTree(page, title);
	await listAnswered(page);
}

export function starButtons(page: Page) {
	return page.getByRole('button', { name: /^Star “/ });
}

/** The title inside a star button's label `Star “…”`. */
export async function starTitle(page: Page, index: number): Promise<string> {
	const label = (await starButtons(page).nth(index).getAttribute('aria-label')) ?? '';
	return label.replace(/^Star “/, '').replace(/”$/, '');
}

/** Offline for pages (setOffline) and for the worker too (routes cut its API traffic). */
export async function cutNetwork(context: BrowserContext): Promise<void> {
	await context.setOffline(true);
	await context.route(API_ROUTE, (route) => route.abort('internetdisconnected'));
}

export async function restoreNetwork(context: BrowserContext): Promise<void> {
	await context.unroute(API_ROUTE);
	await context.setOffline(false);
}

/** Reads one store of the app's database (after the app created it). */
export async function readStore<T>(page: Page, store: string, key?: string | number): Promise<T> {
	return page.evaluate(
		([name, k]) =>
			new Promise<T>((resolve, reject) => {
				const open = indexedDB.open('ttrss-reader');
				open.onerror = () => reject(open.error ?? new Error('open failed'));
				open.onsuccess = () => {
					const db = open.result;
					const request =
						k === undefined
							? db.transaction(name).objectStore(name).getAll()
							: db.transaction(name).objectStore(name).get(k);
					request.onsuccess = () => {
						db.close();
						resolve(request.result as T);
					};
					request.onerror = () => reject(request.error ?? new Error('read failed'));
				};
			}),
		[store, key] as const
	);
}

export async function outboxCount(page: Page): Promise<number> {
	return (await readStore<unknown[]>(page, 'outbox')).length;
}

/** Every headline of a feed, as the server has it now. */
export async function serverHeadlines(feedId = BIG_FEED_ID): Promise<Headline[]> {
	const client = await serverClient();
	const all: Headline[] = [];
	for await (const page of pageHeadlines(client, { feedId, viewMode: 'all_articles' })) {
		all.push(...page);
	}
	return all;
}

export async function starredTitles(feedId = BIG_FEED_ID): Promise<Set<string>> {
	return new Set((await serverHeadlines(feedId)).filter((h) => h.marked).map((h) => h.title));
}

/**
 * Requests to the tt-rss API that reached it (a response came back), with their op, page and worker,
 * from now on. A request that failed on the way (still offline) never reached the server and is not
 * counted: its retry is the one send.
 */
export function recordApiCalls(context: BrowserContext): { op: string; ids: string }[] {
	const calls: { op: string; ids: string }[] = [];
	context.on('requestfinished', (request) => {
		if (!request.url().includes('/tt-rss/api/')) return;
		const body = apiBody(request.postData());
		const ids = typeof body?.article_ids === 'string' ? body.article_ids : '';
		calls.push({ op: body ? String(body.op) : '?', ids });
	});
	return calls;
}

/**
 * Another tab of the app's origin, at `at`, that holds a write transaction over one store of the
 * app's database until it is closed (a request after each answer: it never commits). What the
 * app then does behind it: an outbox write that waits (a sync's page write in the chaos runs), a
 * start whose read never answers (WebKit's frozen transaction). Close the returned tab to let go.
 */
export async function holdStore(
	context: BrowserContext,
	store: string,
	at = '/manifest.webmanifest'
): Promise<Page> {
	const holder = await context.newPage();
	await holder.goto(at);
	await holder.evaluate(
		(name: string) =>
			new Promise<void>((resolve, reject) => {
				const open = indexedDB.open('ttrss-reader');
				open.onerror = () => reject(open.error ?? new Error('open failed'));
				open.onsuccess = () => {
					const held = open.result.transaction(name, 'readwrite').objectStore(name);
					const spin = (): void => {
						held.get('nothing').onsuccess = spin;
					};
					spin();
					resolve();
				};
			}),
		store
	);
	return holder;
}
