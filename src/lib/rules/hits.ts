/**
 * One rule's list of what it matched: the ids its runs recorded (rules/store.ts `RULE_HITS`),
 * read from the articles kept on this device, newest first. Where a tap on the rule's alert of
 * several articles leads (`/rule/<id>`, alerts/target.ts `ruleListPath`), and its link in
 * Settings → Rules. Articles the device no longer keeps are left out.
 */
import type { Headline } from '$lib/api';
import { cachedRows } from '$lib/cache/cache-reads';
import type { MatchRule } from './model';
import { loadRuleHits, loadRules } from './store';

export async function ruleHitRows(
	account: string,
	ruleId: string
): Promise<{ rule: MatchRule | undefined; rows: Headline[] }> {
	const rule = (await loadRules(account)).rules.find(
		(r): r is MatchRule => r.kind === 'match' && r.id === ruleId
	);
	if (!rule) return { rule, rows: [] };
	return { rule, rows: await cachedRows(await loadRuleHits(account, ruleId)) };
}
