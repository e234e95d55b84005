/**
 * The reader's rules, as stored and as the matcher reads them: when an article that arrives by
 * sync matches (the offline search's syntax: words, "phrases", -word, title:, author:, tag:; and
 * optionally only a feed or a category), do its actions — mark read, star, publish, assign a
 * label, alert. Muted words are a rule of their own kind (`mute`), kept with the others.
 * Pure: stored values are narrowed here before any is used.
 */
import { parseStoredWords } from '$lib/alerts/words';
import type { Considered } from '$lib/db/considered';

export type RuleAction =
	| { kind: 'read' }
	| { kind: 'star' }
	| { kind: 'publish' }
	| { kind: 'label'; labelId: number; caption: string }
	| { kind: 'alert' };

/** Where a rule looks: every feed, one feed, or a category (with the ones inside it). */
export type RuleScope =
	{ kind: 'all' } | { kind: 'feed'; id: number } | { kind: 'cat'; id: number };

export interface MatchRule {
	kind: 'match';
	id: string;
	/** The query, in the offline search's syntax (search/query.ts). */
	query: string;
	scope: RuleScope;
	actions: RuleAction[];
}

/** Muted words (mute/): hidden from every list, and, if asked, marked read. */
export interface MuteRule {
	kind: 'mute';
	id: 'mute';
	words: string[];
	content: boolean;
	markRead: boolean;
}

export type Rule = MatchRule | MuteRule;

export interface RuleSettings {
	rules: Rule[];
}

export const NO_RULES: RuleSettings = { rules: [] };

/** What the rules remember per account: the articles they have considered (db/considered.ts). */
export type RuleMemory = Considered;

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => Number.isInteger(v);

function parseAction(v: unknown): RuleAction | undefined {
	if (!isObject(v)) return undefined;
	if (v.kind === 'read' || v.kind === 'star' || v.kind === 'publish' || v.kind === 'alert')
		return { kind: v.kind };
	if (v.kind === 'label' && isId(v.labelId))
		return {
			kind: 'label',
			labelId: v.labelId,
			caption: typeof v.caption === 'string' ? v.caption : ''
		};
	return undefined;
}

function parseScope(v: unknown): RuleScope {
	if (isObject(v) && (v.kind === 'feed' || v.kind === 'cat') && isId(v.id))
		return { kind: v.kind, id: v.id };
	return { kind: 'all' };
}

export function parseRule(v: unknown): Rule | undefined {
	if (!isObject(v)) return undefined;
	if (v.kind === 'mute')
		return {
			kind: 'mute',
			id: 'mute',
			words: parseStoredWords(v.words),
			content: v.content === true,
			markRead: v.markRead === true
		};
	if (v.kind !== 'match' || typeof v.id !== 'string' || typeof v.query !== 'string')
		return undefined;
	const actions = (Array.isArray(v.actions) ? v.actions : [])
		.map(parseAction)
		.filter((a): a is RuleAction => a !== undefined);
	if (!v.query.trim() || actions.length === 0) return undefined;
	return { kind: 'match', id: v.id, query: v.query, scope: parseScope(v.scope), actions };
}

export function parseRuleSettings(v: unknown): RuleSettings | undefined {
	if (!isObject(v) || !Array.isArray(v.rules)) return undefined;
	const rules: Rule[] = [];
	const ids = new Set<string>();
	for (const raw of v.rules) {
		const rule = parseRule(raw);
		if (rule && !ids.has(rule.id)) {
			ids.add(rule.id);
			rules.push(rule);
		}
	}
	return { rules };
}

/**
 * Per rule: the articles it matched as they arrived (newest id first, at most `MAX_RULE_HITS`),
 * what a tap on its alert, or its "Articles it matched" link, lists.
 */
export type RuleHits = Record<string, number[]>;

export const MAX_RULE_HITS = 200;

export function parseRuleHits(v: unknown): RuleHits | undefined {
	if (!isObject(v)) return undefined;
	const hits: RuleHits = {};
	for (const [id, ids] of Object.entries(v))
		if (Array.isArray(ids)) hits[id] = ids.filter(isId).slice(0, MAX_RULE_HITS);
	return hits;
}

/** A rule's hits with this run's added: newest first, each once, bounded. */
export function withHits(known: readonly number[], arrived: readonly number[]): number[] {
	const ids = [...new Set([...arrived].sort((a, b) => b - a).concat(known))];
	return ids.slice(0, MAX_RULE_HITS);
}

/** The rules that act on arriving articles (the muted words only when they mark read). */
export function actingRules(settings: RuleSettings): Rule[] {
	return settings.rules.filter((r) => r.kind === 'match' || (r.markRead && r.words.length > 0));
}
