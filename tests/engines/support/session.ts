/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * What every cross-engine test file needs: exclusive use of the test bed (reset to its seed), a
 * browser of the engine with its own app server and egress guard, the reader signed in through the
 * UI, and the server's own view of an article (read over the API, so a test checks what tt-rss
 * stored, not what the page shows).
 */
import { afterAll, beforeAll, beforeEach, expect, inject } from 'vitest';
import type { Article, TtrssClient } from '../../../src/lib/api';
import { idsByTitle, lockTestbed, loggedInClient, resetTestbed } from '../../contract/testbed';
import { startAppServer, startEgressGuard, type AppServer, type EgressGuard } from './app-server';
import { signInWithForm } from '../../support/sign-in';
import { openFeedIn } from '../../support/open-feed';
import { launch, type EngineBrowser, type EngineName } from './engines';
import { waitFor } from './ui';

export interface EngineSession {
	browser: EngineBrowser;
	server: AppServer;
	guard: EgressGuard;
	/** A client of the test bed, signed in as the test user (for checks on the server). */
	client: TtrssClient;
}

/**
 * Registers beforeAll/afterAll for one engine's describe block and returns the live session (its
 * fields are set once beforeAll has run).
 */
export function useEngine(name: EngineName): EngineSession {
	const session = {} as EngineSession;
	let release: () => void = () => undefined;
	beforeAll(async () => {
		release = await lockTestbed();
		resetTestbed();
		session.guard = await startEgressGuard();
		session.server = await startAppServer(inject('buildDir'));
		session.browser = await launch(name, session.guard);
		session.client = await loggedInClient();
	});
	// Each test, its retry too, starts with the server reachable: a test that failed while it had
	// the API down left it down, and its retry then could not sign in (Firefox, offline.spec.ts,
	// beside the Debian e2e run).
	beforeEach(() => {
		session.server.reachability = 'online';
	});
	afterAll(async () => {
		try {
			if (process.env.ENGINES_DEBUG) console.log(name, 'api ops', session.server?.apiOps.join(' '));
			await session.browser?.close();
			await session.server?.close();
			await session.guard?.close();
			// Firefox's own services (remote settings) try too; refused all the same, but not the app's.
			const refused = (session.guard?.refused ?? []).filter(
				(url) => !/\.mozilla\.(com|net|org)(:\d+)?(\/|$)/.test(url)
			);
			expect(refused, 'requests that would have left the machine').toEqual([]);
		} finally {
			release();
		}
	});
	return session;
}

/** Signs in through the login form and waits for the feed tree and the service worker. */
export async function signIn(session: EngineSession, staySignedIn = true): Promise<void> {
	await signInWithForm(session.browser, `${session.server.url}login`, { staySignedIn });
}

/**
 * Opens a feed from the tree and waits for its rows and for the server's answer (what a test reads
 * of the list, how many rows a muted word hides, is the answer's, or the failure's when offline).
 */
export async function openFeed(session: EngineSession, title: RegExp): Promise<void> {
	await openFeedIn(session.browser, title, { answered: true });
}

/** The article as the server has it now. */
export async function serverArticle(client: TtrssClient, title: string): Promise<Article> {
	const [id] = await idsByTitle(client, title);
	const [article] = await client.getArticle({ articleIds: [id ?? 0] });
	if (!article) throw new Error(`no article ${title}`);
	return article;
}

export { serverUnread } from '../../support/server';

/** On the settings screen: waits until it shows a last sync (the page synced by itself). */
export async function waitSyncedOnce(browser: EngineBrowser): Promise<void> {
	await waitFor(
		browser,
		'a sync by itself',
		() =>
			!/not yet/.test(document.querySelector('[data-testid="last-sync"]')?.textContent ?? 'not yet')
	);
}

/**
 * Waits until no sync runs in the page (its Web Lock `ttrss-sync` is free): a test that checks
 * what the offline copy holds after a page change lets the sync finish writing it first. (A page
 * change during the sync's writes is tested on its own: page-change.spec.ts.)
 */
export async function waitSyncIdle(browser: EngineBrowser): Promise<void> {
	await waitFor(browser, 'no sync running', async () => {
		if (!navigator.locks) return true;
		const { held = [], pending = [] } = await navigator.locks.query();
		return ![...held, ...pending].some((lock) => lock.name === 'ttrss-sync');
	});
}
