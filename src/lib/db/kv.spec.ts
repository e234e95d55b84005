import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_CONSIDERED, ALERT_MEMORY, ALERT_SETTINGS } from '$lib/alerts/rules';
import { RULE_MEMORY } from '$lib/rules/memory';
import { LEGACY_MUTE, RULES } from '$lib/rules/store';
import { SPECIAL_FEEDS } from '$lib/state/special-feeds.svelte';
import { DEFAULT_POLICY, STORAGE_POLICY } from '$lib/offline/policy';
import { IMPORT_JOB } from '$lib/opml/job';
import { SENT_HORIZON, SENT_LOG } from '$lib/outbox/sent-log';
import { REPLAY_STATUS } from '$lib/outbox/status';
import {
	ARTICLE_COUNT,
	DEFAULT_ARTICLE_COUNT,
	EMPTY_STATE,
	PACKS,
	SYNC_STATE
} from '$lib/sync/state';
import { CACHE_OWNER, SEALING } from './keys';
import {
	decodeStored,
	deleteStored,
	getStored,
	onBadStoredValue,
	putStored,
	storedKey,
	storedKeyFamily,
	type StoredKey
} from './kv';
import { openReaderDb } from './open';

let bad: StoredKey<unknown>[] = [];
let stopListening: () => void = () => undefined;

beforeEach(() => {
	bad = [];
	stopListening = onBadStoredValue((key) => bad.push(key));
});
afterEach(() => stopListening());

/** Writes a raw value under the key's name, as an older version or a hand edit might have. */
async function storeRaw(key: StoredKey<unknown>, raw: unknown): Promise<void> {
	await (await openReaderDb()).put(key.store, raw, key.name);
}

const ACCOUNT = 'reader@http://tt.example/api/';

/** Every declared key: a value of its type, and a stored value that is not one. */
const cases: { key: StoredKey<unknown>; good: unknown; wrong: unknown; fallback: unknown }[] = [
	{ key: CACHE_OWNER, good: ACCOUNT, wrong: 42, fallback: undefined },
	{ key: SEALING, good: { algorithm: { name: 'AES-GCM' } }, wrong: 'key', fallback: undefined },
	{
		key: REPLAY_STATUS,
		good: { signInNeeded: true, lastError: 'Offline' },
		wrong: 'broken',
		fallback: { signInNeeded: false }
	},
	{ key: SENT_LOG, good: [{ intent: { kind: 'x' }, sentAt: 1 }], wrong: { 0: 1 }, fallback: [] },
	{ key: SENT_HORIZON, good: 1_000, wrong: '1000', fallback: undefined },
	{
		key: STORAGE_POLICY,
		good: { images: 'never', budgetMB: 200 },
		wrong: 7,
		fallback: DEFAULT_POLICY
	},
	{
		key: SYNC_STATE(ACCOUNT),
		good: { ...EMPTY_STATE, newestId: 9, lastSyncAt: 5, packCounters: { a: 'b' }, articleCount: 3 },
		wrong: [1, 2],
		fallback: EMPTY_STATE
	},
	{
		key: PACKS(ACCOUNT),
		good: [{ id: 'feed:3', kind: 'feed', feedId: 3, title: 'T', limit: 50, enclosures: false }],
		wrong: 'packs',
		fallback: []
	},
	{ key: ARTICLE_COUNT, good: 200, wrong: -3, fallback: DEFAULT_ARTICLE_COUNT },
	{
		key: ALERT_SETTINGS(ACCOUNT),
		good: {
			rules: [{ id: 'feed:1', kind: 'feed', feedId: 1, title: 'One' }],
			quiet: ALERT_SETTINGS(ACCOUNT).fallback().quiet
		},
		wrong: null,
		fallback: ALERT_SETTINGS(ACCOUNT).fallback()
	},
	{
		key: ALERT_MEMORY(ACCOUNT),
		good: { last: { f1: 5 }, pending: { f1: [6, 7] } },
		wrong: 'memory',
		fallback: { pending: {} }
	},
	{
		key: ALERT_CONSIDERED(ACCOUNT),
		good: { floor: 5, ids: [6, 9] },
		wrong: { floor: 'x', ids: [] },
		fallback: undefined
	},
	{
		key: LEGACY_MUTE(ACCOUNT),
		good: { words: ['spoiler'], content: false, markRead: true },
		wrong: ['spoiler'],
		fallback: undefined
	},
	{
		key: RULES(ACCOUNT),
		good: {
			rules: [
				{ kind: 'mute', id: 'mute', words: ['spoiler'], content: false, markRead: true },
				{
					kind: 'match',
					id: 'r1',
					query: 'title:rust',
					scope: { kind: 'all' },
					actions: [{ kind: 'star' }]
				}
			]
		},
		wrong: 'rules',
		fallback: undefined
	},
	{
		key: RULE_MEMORY(ACCOUNT),
		good: { floor: 42, ids: [43, 50] },
		wrong: { floor: -1, ids: [] },
		fallback: undefined
	},
	{
		key: SPECIAL_FEEDS,
		good: { order: [-100, -1], hidden: [0] },
		wrong: { order: 'x' },
		fallback: { order: [], hidden: [] }
	},
	{
		key: IMPORT_JOB,
		good: { account: ACCOUNT, startedAt: 1, items: [] },
		wrong: { account: ACCOUNT },
		fallback: undefined
	}
];

describe('stored keys', () => {
	it.each(cases.map((c) => [c.key.label, c] as const))(
		'%s: a value of its type comes back; nothing stored gives the default',
		async (_label, { key, good, fallback }) => {
			expect(await getStored(key)).toEqual(fallback);
			await putStored(key, good);
			expect(await getStored(key)).toEqual(good);
			await deleteStored(key);
			expect(await getStored(key)).toEqual(fallback);
			expect(bad).toEqual([]);
		}
	);

	it.each(cases.map((c) => [c.key.label, c] as const))(
		'%s: a stored value of the wrong type gives the default and is reported, not thrown',
		async (_label, { key, wrong, fallback }) => {
			await storeRaw(key, wrong);
			expect(await getStored(key)).toEqual(fallback);
			expect(bad.map((k) => k.name)).toEqual([key.name]);
		}
	);

	it('names every key once: no two declarations share a store and name', () => {
		const names = cases.map((c) => `${c.key.store}/${c.key.label}`);
		expect(new Set(names).size).toBe(names.length);
	});
});

describe('the key mechanism', () => {
	const count = storedKey<number>({
		store: 'sync',
		name: 'test.count',
		owner: 'db/kv.spec.ts',
		parse: (raw) => (typeof raw === 'number' ? raw : undefined),
		fallback: () => 0
	});

	it('hands out a fresh default each time, so a caller may change it', () => {
		const list = storedKey<number[]>({
			store: 'settings',
			name: 'test.list',
			owner: 'db/kv.spec.ts',
			parse: (raw) => (Array.isArray(raw) ? (raw as number[]) : undefined),
			fallback: () => []
		});
		decodeStored(list, undefined).push(1);
		expect(decodeStored(list, undefined)).toEqual([]);
	});

	it('a family names each id apart and reports by its prefix, never the id', async () => {
		const perAccount = storedKeyFamily<number>({ ...count, prefix: 'test.count:' });
		await putStored(perAccount('a'), 1);
		await putStored(perAccount('b'), 2);
		expect(await getStored(perAccount('a'))).toBe(1);
		await storeRaw(perAccount('b'), 'two');
		expect(await getStored(perAccount('b'))).toBe(0);
		expect(bad.map((k) => k.label)).toEqual(['test.count:…']);
	});

	it('without a listener a bad value is still reported (a warning) and read as the default', async () => {
		stopListening();
		const warnings: unknown[] = [];
		const warn = console.warn;
		console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
		try {
			await storeRaw(count, 'many');
			expect(await getStored(count)).toBe(0);
		} finally {
			console.warn = warn;
		}
		expect(warnings).toEqual([expect.stringContaining('sync/test.count (db/kv.spec.ts)')]);
	});
});
