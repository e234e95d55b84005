/**
 * The rules after a sync, in the page or the service worker (whichever synced): the sync's hook
 * (sync/run-sync.ts, under the sync's lock), before the alerts. Each article is considered once: the
 * rules keep which cached articles they have considered (db/considered.ts: bounded, per account)
 * and claim the ones they have not before they act, in one transaction, so an article is never
 * acted on twice — not after the reader undoes what a rule did, nor when the page and the worker
 * run them together (with Web Locks one run waits for the other; without, the claim decides). An
 * article the reader changed since it reached the device (a list brought it in before the sync;
 * opened, kept unread) is considered and left as the reader left it: the reader's word is the last
 * (outbox/intent-effect.ts `changedByReader`, also checked where a rule's change goes in). Each action is
 * an ordinary intent through the outbox's one door (`enqueueRuleIntent`): applied to the cached
 * articles at once, queued offline, sent once. Quiet and cheap without rules: one read.
 */
import type { FeedTree } from '$lib/api';
import { cachedMatching, cachedTree } from '$lib/cache/cache-reads';
import { showNotices } from '$lib/alerts/notify';
import { articleInItsFeed, noticeFor, type AlertNotice } from '$lib/alerts/alert-plan';
import { ruleListPath } from '$lib/alerts/target';
import { claimArrivals } from '$lib/db/considered';
import { enqueueRuleIntent } from '$lib/outbox/enqueue';
import { changedByReader } from '$lib/outbox/intent-effect';
import { parentsOf } from '$lib/tree/walk';
import { actingRules } from './model';
import { planRules, ruleMatcher } from './match';
import type { Rule } from './model';
import { RULE_MEMORY } from './memory';
import { loadRules, recordRuleHits } from './store';

const RULES_LOCK = 'ttrss-rules';

async function withLock<T>(run: () => Promise<T>): Promise<T> {
	const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
	return locks?.request ? locks.request(RULES_LOCK, () => run()) : run();
}

/** What a run did: the articles it changed (for the screens) and the intents it queued. */
export interface RulesRun {
	touched: number[];
	queued: number;
}

const NOTHING: RulesRun = { touched: [], queued: 0 };

/** Runs an account's rules over the cached articles they have not considered yet. */
export async function runRules(account: string): Promise<RulesRun> {
	return withLock(async () => {
		const rules = actingRules(await loadRules(account));
		if (rules.length === 0) return NOTHING;
		// Claimed first: an article is considered once, whatever happens next. None when the
		// cache is no longer the account's (signed out, or another account, while the sync ran).
		const claimed = await claimArrivals(RULE_MEMORY(account), account);
		const rows = claimed.filter((row) => !changedByReader(row));
		if (rows.length === 0) return NOTHING;
		const parents = parentsOf((await cachedTree())?.tree);
		const plan = planRules(rules, rows, (feedId) => parents.get(feedId));
		await recordRuleHits(account, plan.matched);
		for (const intent of plan.intents) await enqueueRuleIntent(intent);
		await showNotices(plan.alerts.map(ruleNotice), account);
		return { touched: plan.touched, queued: plan.intents.length };
	});
}

/** A rule's alert: the alerts' own notice and door (alerts/alert-plan.ts `noticeFor`, notify.ts). */
function ruleNotice({ rule, rows }: ReturnType<typeof planRules>['alerts'][number]): AlertNotice {
	return noticeFor(
		{
			id: rule.id,
			tag: `rule:${rule.id}`,
			label: rule.query,
			// Several: the rule's own list of what it matched; one: the article in its feed.
			listPath: ruleListPath(rule.id) ?? 'feed/-4',
			articlePath: articleInItsFeed
		},
		rows
	);
}

/** The sync's hook: never fails a sync (the next one runs the rules again from where they were). */
export async function rulesAfterSync(
	account: string,
	outcome: { status: string }
): Promise<RulesRun> {
	if (outcome.status === 'busy') return NOTHING;
	try {
		return await runRules(account);
	} catch {
		return NOTHING;
	}
}

/**
 * "Would match N articles": a rule tried on the articles kept on this device, before it is saved
 * (it acts only on articles that arrive after). Undefined when its query can select nothing.
 */
export async function tryRule(rule: Rule, tree: FeedTree | undefined): Promise<number | undefined> {
	const parents = parentsOf(tree);
	const keep = ruleMatcher(rule, (feedId) => parents.get(feedId));
	if (!keep) return undefined;
	return (await cachedMatching({ keep })).length;
}
