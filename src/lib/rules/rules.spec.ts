import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Headline } from '$lib/api';
import { recordedLevels } from '$support/fake-fetch';
import { getStored, putStored } from '$lib/db/kv';
import { ownCacheForTests } from '$support/own-cache';
import { pendingItems } from '$lib/outbox/outbox';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { headline } from '$support/factories';
import { runSync } from '$lib/sync/run-sync';
import { syncServer } from '$support/sync-server';
import { alertTarget, ruleListPath } from '$lib/alerts/target';
import { ruleHitRows } from './hits';
import { planRules, ruleMatcher } from './match';
import type { MatchRule, Rule } from './model';
import { loadRuleMemory } from './memory';
import { LEGACY_MUTE, loadRules, RULE_HITS, RULES, saveMuteRule, saveRules } from './store';

const ACCOUNT = 'reader@http://tt.example/api/';

beforeEach(async () => {
	await ownCacheForTests();
});

afterEach(() => {
	vi.unstubAllGlobals();
});

const rule = (query: string, patch: Partial<MatchRule> = {}): MatchRule => ({
	kind: 'match',
	id: query,
	query,
	scope: { kind: 'all' },
	actions: [{ kind: 'star' }],
	...patch
});
const none = () => undefined;
const row = (id: number, patch: Partial<Headline> = {}) => headline(id, patch);

describe('which articles a rule matches: the offline search’s syntax', () => {
	it('words, phrases, -word and title:/author:, whole words only', () => {
		const rows = [
			row(1, { title: 'Rust 2.0 released', author: 'Ann' }),
			row(2, { title: 'Rusty nails', content: '<p>about rust</p>' }),
			row(3, { title: 'Rust and crypto', author: 'Bob' }),
			row(4, { title: 'Go release notes', content: '<p>The Rust team said hi</p>' })
		];
		const ids = (query: string) =>
			rows.filter(ruleMatcher(rule(query), none) ?? (() => false)).map((r) => r.id);
		expect(ids('title:rust')).toEqual([1, 3]);
		// A rule's last word is a whole word, never a prefix as a search box's is.
		expect(ids('title:rus')).toEqual([]);
		expect(ids('rust -crypto')).toEqual([1, 2, 4]);
		expect(ids('"rust team"')).toEqual([4]);
		expect(ids('author:bob')).toEqual([3]);
		expect(ruleMatcher(rule('-rust'), none)).toBeUndefined();
	});

	it('a feed or a category scope keeps the rule to its articles', () => {
		const rows = [row(1, { title: 'Rust', feedId: 7 }), row(2, { title: 'Rust', feedId: 8 })];
		const inCat = ruleMatcher(rule('rust', { scope: { kind: 'cat', id: 3 } }), (feed) =>
			feed === 8 ? [5, 3] : undefined
		);
		const inFeed = ruleMatcher(rule('rust', { scope: { kind: 'feed', id: 7 } }), none);
		expect(rows.filter(inCat!).map((r) => r.id)).toEqual([2]);
		expect(rows.filter(inFeed!).map((r) => r.id)).toEqual([1]);
	});

	it('one intent per action naming every row it changes; rows already so are left out', () => {
		const rows = [
			row(1, { title: 'Rust' }),
			row(2, { title: 'Rust', marked: true }),
			row(3, { title: 'Other' })
		];
		const plan = planRules(
			[
				rule('rust', { actions: [{ kind: 'star' }, { kind: 'read' }] }),
				rule('other', { id: 'o', actions: [{ kind: 'label', labelId: -1030, caption: 'L' }] })
			],
			rows,
			none
		);
		expect(plan.intents).toEqual([
			{ type: 'flag', field: 'starred', articleIds: [1], value: true },
			{ type: 'flag', field: 'unread', articleIds: [1, 2], value: false },
			{ type: 'label', articleIds: [3], labelId: -1030, assign: true }
		]);
		expect(plan.touched.sort()).toEqual([1, 2, 3]);
	});

	it('property: a rule acts on exactly the rows its query finds, each row once per action', () => {
		const word = fc.constantFrom('rust', 'go', 'crypto', 'news', 'sea');
		const arbRow = fc.record({
			title: fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
			marked: fc.boolean()
		});
		fc.assert(
			fc.property(fc.array(arbRow, { maxLength: 20 }), word, (specs, w) => {
				const rows = specs.map((s, i) => row(i + 1, s));
				const plan = planRules([rule(`title:${w}`)], rows, none);
				const expected = rows
					.filter((r) => r.title.split(' ').includes(w) && !r.marked)
					.map((r) => r.id);
				const ids = plan.intents.flatMap((i) => ('articleIds' in i ? i.articleIds : []));
				expect(ids).toEqual(expected);
				expect(new Set(ids).size).toBe(ids.length);
			})
		);
	});
});

describe('the muted words are a rule', () => {
	it('stored muted words move to the rules once, and keep their settings', async () => {
		await putStored(LEGACY_MUTE(ACCOUNT), { words: ['crypto'], content: true, markRead: true });
		expect((await loadRules(ACCOUNT)).rules).toEqual([
			{ kind: 'mute', id: 'mute', words: ['crypto'], content: true, markRead: true }
		]);
		expect(await getStored(LEGACY_MUTE(ACCOUNT))).toBeUndefined();
		expect(await getStored(RULES(ACCOUNT))).toBeDefined();
	});

	it('changing the muted words keeps the other rules', async () => {
		await saveRules(ACCOUNT, { rules: [rule('rust')] });
		await saveMuteRule(ACCOUNT, { words: ['spoiler'], content: false, markRead: false });
		expect((await loadRules(ACCOUNT)).rules.map((r: Rule) => r.kind)).toEqual(['mute', 'match']);
		await saveMuteRule(ACCOUNT, { words: [], content: false, markRead: false });
		expect((await loadRules(ACCOUNT)).rules.map((r: Rule) => r.kind)).toEqual(['match']);
	});
});

describe.each(recordedLevels)('rules after a sync (%s server shapes)', (level) => {
	const sync = (server: ReturnType<typeof syncServer>) =>
		runSync({ client: server.client, account: ACCOUNT, articleCount: 500 });

	it('act once on the articles that arrive, never on those already here, never again after undo', async () => {
		const server = syncServer(level);
		for (const id of server.arrive(3)) server.article(id).title = `Rust old ${id}`;
		await sync(server);
		await saveRules(ACCOUNT, { rules: [rule('title:rust')] });
		const fresh = server.arrive(3);
		server.article(fresh[0]!).title = 'Rust arrives';
		server.article(fresh[2]!).title = 'Rust again';
		await sync(server);
		const starred = (await pendingItems()).filter(
			(item) => item.intent.type === 'flag' && item.intent.field === 'starred'
		);
		expect(starred.map((item) => item.articleId).sort()).toEqual([fresh[0], fresh[2]]);
		expect((await loadRuleMemory(ACCOUNT))?.ids).toEqual(fresh);
		// The reader takes one back (an ordinary unstar); the next syncs leave it so.
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [fresh[0]!], value: false });
		await sync(server);
		server.arrive(1);
		await sync(server);
		const after = (await pendingItems()).filter(
			(item) => item.intent.type === 'flag' && item.intent.field === 'starred'
		);
		expect(after.map((i) => [i.articleId, i.intent.type === 'flag' && i.intent.value])).toEqual(
			expect.arrayContaining([
				[fresh[0], false],
				[fresh[2], true]
			])
		);
		expect(after).toHaveLength(2);
	});

	it('keep the list of what each rule matched, newest first, and an alert of several opens it', async () => {
		const shown: { title: string; data: { path?: string } }[] = [];
		vi.stubGlobal('Notification', { permission: 'granted' });
		vi.stubGlobal('registration', {
			scope: 'http://app.example/',
			showNotification: (title: string, options: { data: { path?: string } }) => {
				shown.push({ title, data: options.data });
				return Promise.resolve();
			}
		});
		const server = syncServer(level);
		for (const id of server.arrive(2)) server.article(id).title = `Comet old ${id}`;
		await sync(server);
		const alerting = rule('title:comet', { id: 'r1', actions: [{ kind: 'alert' }] });
		await saveRules(ACCOUNT, { rules: [alerting, rule('title:rain', { id: 'r2' })] });
		const fresh = server.arrive(4);
		server.article(fresh[0]!).title = 'Comet one';
		server.article(fresh[1]!).title = 'Rain all day';
		server.article(fresh[3]!).title = 'Comet two';
		await sync(server);

		const notice = shown.find((n) => n.data.path?.startsWith('rule/'));
		expect(notice?.data.path).toBe('rule/r1');
		expect(alertTarget(notice?.data, 'http://app.example/')).toBe(
			'http://app.example/?to=/rule/r1'
		);
		// Exactly what the rule matched as it arrived: not the comets already here, not the rain.
		const listed = await ruleHitRows(ACCOUNT, 'r1');
		expect(listed.rule?.query).toBe('title:comet');
		expect(listed.rows.map((r) => r.id)).toEqual([fresh[3], fresh[0]]);
		expect((await ruleHitRows(ACCOUNT, 'r2')).rows.map((r) => r.id)).toEqual([fresh[1]]);

		// Later matches go on top; a rule taken away takes its list with it.
		const later = server.arrive(1);
		server.article(later[0]!).title = 'Comet three';
		await sync(server);
		expect((await ruleHitRows(ACCOUNT, 'r1')).rows.map((r) => r.id)).toEqual([
			later[0],
			fresh[3],
			fresh[0]
		]);
		await saveRules(ACCOUNT, { rules: [alerting] });
		expect(await getStored(RULE_HITS(ACCOUNT))).toEqual({ r1: [later[0], fresh[3], fresh[0]] });
		expect(await ruleHitRows(ACCOUNT, 'gone')).toEqual({ rule: undefined, rows: [] });
	});
});

describe('a rule alert’s path', () => {
	it('is the rule’s list for a plain id, never a path that could leave the list routes', () => {
		expect(ruleListPath('r1732612345678')).toBe('rule/r1732612345678');
		for (const id of ['../x', 'a/b', 'title:comet', '', 'x'.repeat(65)])
			expect(ruleListPath(id)).toBeUndefined();
		expect(alertTarget({ path: 'rule/../settings' }, 'http://app.example/')).toBeUndefined();
		expect(alertTarget({ path: 'rule/r1/2' }, 'http://app.example/')).toBeUndefined();
	});
});
