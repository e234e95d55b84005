/**
 * What the real server holds, read through the app's own API module over Node's fetch: one set of
 * helpers for the contract tests, the Playwright suite and the engines suite, so every test checks
 * what tt-rss really stored the same way.
 */
import { TtrssClient, type TtrssClientOptions } from '../../src/lib/api/client';
import { testbed } from './testbed';
import { pageHeadlines } from '../../src/lib/api/paging';

export function newClient(options: Partial<TtrssClientOptions> = {}): TtrssClient {
	return new TtrssClient({ apiUrl: testbed.apiUrl, ...options });
}

/** A client logged in as the test user, which may also log in again by itself. */
export async function loggedInClient(
	options: Partial<TtrssClientOptions> = {}
): Promise<TtrssClient> {
	const credentials = { user: testbed.user, password: testbed.password };
	const client = newClient({ credentials: () => credentials, ...options });
	await client.login(credentials);
	return client;
}

/** The ids of the one article whose title starts with each prefix (all feeds, read or not). */
export async function idsByTitle(client: TtrssClient, ...prefixes: string[]): Promise<number[]> {
	const all: { id: number; title: string }[] = [];
	for await (const page of pageHeadlines(client, { feedId: -4, viewMode: 'all_articles' })) {
		all.push(...page);
	}
	return prefixes.map((prefix) => {
		const hits = all.filter((h) => h.title.startsWith(prefix));
		if (hits.length !== 1) throw new Error(`"${prefix}" matched ${hits.length} articles`);
		return (hits[0] as { id: number }).id;
	});
}

/** The unread counter of one feed, from getCounters. */
export async function serverUnread(client: TtrssClient, feedId: number): Promise<number> {
	const counters = await client.getCounters();
	return [...counters.feeds, ...counters.special].find((c) => c.id === feedId)?.unread ?? 0;
}
