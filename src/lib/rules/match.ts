/**
 * Which articles a rule acts on, and what its actions come to: pure, with the offline search's own
 * parser and row matcher (search/query.ts, search/inverted-index.ts) and the muted words' own matcher
 * (alerts/words.ts), so a rule matches exactly where a search or the mute would.
 */
import type { Headline } from '$lib/api';
import { wordMatcher, wordTexts } from '$lib/alerts/words';
import { rowMatches } from '$lib/search/inverted-index';
import { hasPositiveTerm, parseQuery, type QueryTerm } from '$lib/search/query';
import type { Intent } from '$lib/outbox/intent';
import type { MatchRule, Rule, RuleAction, RuleScope } from './model';

/** Feed id → the ids of the categories it sits in (tree/walk.ts `parentsOf`). */
export type CategoriesOf = (feedId: number) => readonly number[] | undefined;

function inScope(scope: RuleScope, row: Headline, categoriesOf: CategoriesOf): boolean {
	if (scope.kind === 'all') return true;
	if (row.feedId === null) return false;
	if (scope.kind === 'feed') return row.feedId === scope.id;
	return categoriesOf(row.feedId)?.includes(scope.id) ?? false;
}

/** The query's terms as a rule reads them: whole words only (a search's last word is a prefix). */
export function ruleTerms(query: string): QueryTerm[] | undefined {
	const parsed = parseQuery(query);
	if (!hasPositiveTerm(parsed)) return undefined;
	return parsed.terms.map((term) => ({ ...term, prefix: false }));
}

/** A rule ready to test rows: undefined when its query can select nothing. */
export function ruleMatcher(
	rule: Rule,
	categoriesOf: CategoriesOf
): ((row: Headline) => boolean) | undefined {
	if (rule.kind === 'mute') {
		if (rule.words.length === 0) return undefined;
		const matcher = wordMatcher(rule.words);
		return (row) => matcher.first(wordTexts(row, { content: rule.content })) !== undefined;
	}
	const terms = ruleTerms(rule.query);
	if (!terms) return undefined;
	return (row) =>
		inScope(rule.scope, row, categoriesOf) && terms.every((term) => rowMatches(row, term));
}

/** What the rules do to these rows: each action's ids, in one intent per action. */
export interface RulePlan {
	intents: Intent[];
	/** Per match rule with an alert: the rows it alerts about. */
	alerts: { rule: MatchRule; rows: Headline[] }[];
	/** Every row some rule acted on. */
	touched: number[];
	/** Per match rule: the ids of the rows it matched (its list of matches, rules/store.ts). */
	matched: { ruleId: string; ids: number[] }[];
}

const INTENT_OF: Record<
	Exclude<RuleAction['kind'], 'label' | 'alert'>,
	(ids: number[]) => Intent
> = {
	read: (ids) => ({ type: 'flag', field: 'unread', articleIds: ids, value: false }),
	star: (ids) => ({ type: 'flag', field: 'starred', articleIds: ids, value: true }),
	publish: (ids) => ({ type: 'flag', field: 'published', articleIds: ids, value: true })
};

const FLAG_OF = { read: 'unread', star: 'marked', publish: 'published' } as const;
const TARGET_OF = { read: false, star: true, publish: true } as const;

/**
 * The intents the rules make for these arriving rows: one per action kind (and label), naming
 * every row it changes (rows already so are left out), in the rules' order.
 */
export function planRules(
	rules: readonly Rule[],
	rows: readonly Headline[],
	categoriesOf: CategoriesOf
): RulePlan {
	const flags = new Map<keyof typeof INTENT_OF, Set<number>>();
	const labels = new Map<number, Set<number>>();
	const alerts: RulePlan['alerts'] = [];
	const touched = new Set<number>();
	const matched: RulePlan['matched'] = [];
	for (const rule of rules) {
		const matches = ruleMatcher(rule, categoriesOf);
		if (!matches) continue;
		const hits = rows.filter(matches);
		if (hits.length === 0) continue;
		if (rule.kind === 'match') matched.push({ ruleId: rule.id, ids: hits.map((r) => r.id) });
		const actions: RuleAction[] =
			rule.kind === 'mute' ? (rule.markRead ? [{ kind: 'read' }] : []) : rule.actions;
		for (const action of actions) {
			if (action.kind === 'alert') {
				if (rule.kind === 'match') alerts.push({ rule, rows: hits });
				continue;
			}
			const changing =
				action.kind === 'label'
					? hits.filter((r) => !r.labels.some((l) => l.id === action.labelId))
					: hits.filter((r) => r[FLAG_OF[action.kind]] !== TARGET_OF[action.kind]);
			for (const r of changing) touched.add(r.id);
			if (action.kind === 'label') {
				const ids = labels.get(action.labelId) ?? new Set<number>();
				for (const r of changing) ids.add(r.id);
				labels.set(action.labelId, ids);
			} else {
				const ids = flags.get(action.kind) ?? new Set<number>();
				for (const r of changing) ids.add(r.id);
				flags.set(action.kind, ids);
			}
		}
	}
	const intents: Intent[] = [];
	for (const [kind, ids] of flags) if (ids.size > 0) intents.push(INTENT_OF[kind]([...ids]));
	for (const [labelId, ids] of labels)
		if (ids.size > 0) intents.push({ type: 'label', articleIds: [...ids], labelId, assign: true });
	return { intents, alerts, touched: [...touched], matched };
}
