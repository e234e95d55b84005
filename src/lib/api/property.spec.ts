/**
 * Property test: random and malformed replies through the parsers and the transport either give a
 * typed value or an ApiError, never any other exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveCapabilities } from './capabilities';
import { TtrssClient } from './client';
import { ApiError } from './errors';
import * as parse from './parse';
import * as articleParse from './parse-articles';
import { clone, fakeFetch, recordedContent, recordedLevels } from '$support/fake-fetch';
import { unwrap } from './transport';
import { parseReply } from './wire';

const parsers: [string, (content: unknown) => unknown, string][] = [
	['login', parse.parseLogin, 'login'],
	['getConfig', parse.parseConfig, 'getConfig'],
	['getApiLevel', parse.parseApiLevel, 'getApiLevel'],
	['getVersion', parse.parseVersionReply, 'getVersion'],
	['isLoggedIn', parse.parseLoggedIn, 'isLoggedIn'],
	['getUnread', parse.parseUnread, 'getUnread'],
	['getPref', parse.parsePref, 'getPref'],
	['catchupFeed', parse.parseOk, 'catchupFeed'],
	['updateArticle', parse.parseUpdated, 'updateArticle'],
	['getHeadlines', (c) => articleParse.parseHeadlines(c), 'getHeadlines-podcast'],
	['getHeadlines', (c) => articleParse.parseHeadlines(c), 'getHeadlines-header'],
	['getArticle', (c) => articleParse.parseArticles(c), 'getArticle'],
	['getFeeds', (c) => parse.parseFeeds(c), 'getFeeds-all'],
	['getCategories', parse.parseCategories, 'getCategories'],
	['getLabels', (c) => parse.parseLabels(c), 'getLabels'],
	['getCounters', (c) => parse.parseCounters(c), 'getCounters'],
	['subscribeToFeed', parse.parseSubscribe, 'subscribeToFeed-added'],
	['getFeedTree', (c) => parse.parseFeedTree(c), 'getFeedTree']
];

/** Replaces the n-th node (pre-order) of a copy of `base` with `replacement`. */
function mutate(base: unknown, n: number, replacement: unknown): unknown {
	const root = { value: clone(base) } as Record<string, unknown>;
	let index = 0;
	let done = false;
	const visit = (holder: Record<string, unknown> | unknown[], key: string | number): void => {
		if (done) return;
		if (index++ === n % 400) {
			(holder as Record<string, unknown>)[key] = replacement;
			done = true;
			return;
		}
		const value = (holder as Record<string, unknown>)[key];
		if (Array.isArray(value)) value.forEach((_, i) => visit(value, i));
		else if (typeof value === 'object' && value !== null) {
			for (const k of Object.keys(value)) visit(value as Record<string, unknown>, k);
		}
	};
	visit(root, 'value');
	return root.value;
}

function typedOrApiError(run: () => unknown): void {
	try {
		run();
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
	}
}

const strangeValues = fc.oneof(
	fc.jsonValue(),
	fc.constantFrom('', '0', 'f', 'false', 'NaN', '1e400', '-1', '[]', '<b>', null, [''], {})
);

describe('property: parsers never throw anything but ApiError', () => {
	it.each(parsers)('%s (%s) with random content', (op, parser) => {
		fc.assert(
			fc.property(fc.jsonValue(), (content) => {
				typedOrApiError(() => parseReply(op, content, parser));
			}),
			{ numRuns: 200 }
		);
	});

	it.each(recordedLevels.flatMap((level) => parsers.map((p) => [...p, level] as const)))(
		'%s with mutations of the recorded reply %s (%s)',
		(op, parser, name, level) => {
			const base = recordedContent(level, name);
			fc.assert(
				fc.property(fc.nat(), strangeValues, (n, replacement) => {
					typedOrApiError(() => parseReply(op, mutate(base, n, replacement), parser));
				}),
				{ numRuns: 300 }
			);
		}
	);
});

describe('property: reply bodies', () => {
	const bodies = fc.oneof(
		fc.string(),
		fc.jsonValue().map((v) => JSON.stringify(v)),
		fc
			.record({
				seq: fc.oneof(
					fc.constant(1),
					fc.constant(null),
					fc.constant(-1),
					fc.integer(),
					fc.string()
				),
				status: fc.oneof(fc.constant(0), fc.constant(1), fc.jsonValue()),
				content: fc.oneof(
					fc.jsonValue(),
					fc.record({ error: fc.oneof(fc.string(), fc.jsonValue()) })
				)
			})
			.map((v) => JSON.stringify(v)),
		fc.string().map((s) => `<!DOCTYPE html><html>${s}</html>`)
	);

	it('unwrap gives content or an ApiError', () => {
		fc.assert(
			fc.property(bodies, (body) => {
				typedOrApiError(() => unwrap('getHeadlines', body, 1, 'call'));
			}),
			{ numRuns: 1000 }
		);
	});

	it('the client gives a typed value or rejects with an ApiError, whatever the server sends', async () => {
		await fc.assert(
			fc.asyncProperty(
				bodies,
				fc.constantFrom(200, 200, 200, 500, 502, 404),
				fc.constantFrom(
					'getHeadlines',
					'getCounters',
					'getFeedTree',
					'getFeeds',
					'getArticle',
					'login'
				),
				async (body, status, op) => {
					const fake = fakeFetch(() => new Response(body, { status }));
					const client = new TtrssClient({
						apiUrl: '/api/',
						fetch: fake.fetch,
						sessionId: 's',
						capabilities: deriveCapabilities(15)
					});
					const calls: Record<string, () => Promise<unknown>> = {
						getHeadlines: () => client.getHeadlines({ feedId: -4 }),
						getCounters: () => client.getCounters(),
						getFeedTree: () => client.loadFeedTree(),
						getFeeds: () => client.getFeeds({ catId: -4 }),
						getArticle: () => client.getArticle({ articleIds: [1] }),
						login: () => client.login({ user: 'u', password: 'p' })
					};
					try {
						await calls[op]?.();
					} catch (error) {
						expect(error).toBeInstanceOf(ApiError);
					}
				}
			),
			{ numRuns: 300 }
		);
	});
});
