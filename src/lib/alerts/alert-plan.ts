/**
 * Which alerts a sync gives, decided without any I/O (notify.ts reads and shows): the articles
 * that arrived (claimed from the alerts' considered set, db/considered.ts: each once, in whatever
 * order they reach the device) that a rule matches, still unread and not already in a list the
 * reader had on screen, grouped into one notice per rule. Each article goes to the first rule that
 * matches it: no article is ever announced twice. In quiet hours nothing is shown; what matched
 * waits and is summed up in the first notice after them.
 */
import { m } from '$lib/i18n/m';
import type { AlertRule } from './rules';
import { matchingWord, type WordTarget } from './words';

/** What the plan reads of a stored article. */
export interface AlertArticle extends WordTarget {
	id: number;
	feedId: number | null;
	unread: boolean;
	/** Unix seconds (newest titles first). */
	updated: number;
}

export interface AlertNotice {
	ruleId: string;
	/** The notification's tag: a later notice of the same rule replaces it. */
	tag: string;
	title: string;
	body: string;
	/** Where a tap leads, relative to the app's base: the article, or the list when several. */
	path: string;
	articleIds: number[];
}

export interface PlanInput {
	rules: readonly AlertRule[];
	/** The articles that arrived since the last run (their first consideration). */
	arrived: readonly number[];
	/** Per rule, what quiet hours held back. */
	pending: Readonly<Record<string, readonly number[]>>;
	/** Stored articles (any order): the arrived and the pending ones. */
	articles: ReadonlyMap<number, AlertArticle>;
	/** Ids in a list the reader had open: seen already. */
	seen: ReadonlySet<number>;
	/** The categories a feed sits in, innermost first (tree/walk.ts `parentsOf`). */
	categoriesOf: (feedId: number) => readonly number[] | undefined;
	quiet: boolean;
}

export interface Plan {
	notices: AlertNotice[];
	/** Per rule, what quiet hours hold back now. */
	pending: Record<string, number[]>;
}

/** Newest titles listed in a notice; the rest are counted. */
export const LISTED_TITLES = 3;

export function ruleMatches(
	rule: AlertRule,
	article: AlertArticle,
	categoriesOf: PlanInput['categoriesOf']
): boolean {
	if (rule.kind === 'feed') return article.feedId === rule.feedId;
	if (rule.kind === 'cat')
		return article.feedId !== null && (categoriesOf(article.feedId)?.includes(rule.catId) ?? false);
	return matchingWord(article, rule.words, { content: rule.content }) !== undefined;
}

/** The rule's own list, for a tap on a notice of several articles. */
function listPath(rule: AlertRule): string {
	if (rule.kind === 'feed') return `feed/${rule.feedId}`;
	if (rule.kind === 'cat') return `cat/${rule.catId}`;
	// Words have no list of their own: All articles, where they are newest.
	return 'feed/-4';
}

/** An article in its own feed's list (a choice that is not one feed or category). */
export function articleInItsFeed(article: AlertArticle): string {
	return `feed/${article.feedId ?? -4}/${article.id}`;
}

function articlePath(rule: AlertRule, article: AlertArticle): string {
	if (rule.kind === 'words') return articleInItsFeed(article);
	return `${listPath(rule)}/${article.id}`;
}

export function ruleLabel(rule: AlertRule): string {
	if (rule.kind === 'words') return rule.words.map((word) => m.alert_quoted({ word })).join(', ');
	return rule.title || (rule.kind === 'feed' ? m.alert_a_feed() : m.alert_a_category());
}

/**
 * What a notice is about: an alert's choice (below) or a reader's rule with an alert action
 * (rules/after-sync.ts). Both go through `noticeFor`, so a tap leads the same way for both.
 */
export interface NoticeSource {
	id: string;
	/** The notification's tag: a later notice of the same source replaces it. */
	tag: string;
	/** "N new in <label>". */
	label: string;
	/** Where a tap on a notice of several articles leads. */
	listPath: string;
	/** Where a tap on a notice of one article leads: the article itself. */
	articlePath: (article: AlertArticle) => string;
}

/**
 * One notice for the articles a source matched: the newest titles first ("and N more"); a tap
 * opens the article when there is one, the source's list when there are several.
 */
export function noticeFor(
	source: NoticeSource,
	articles: readonly AlertArticle[],
	afterQuiet = false
): AlertNotice {
	const newest = [...articles].sort((a, b) => b.updated - a.updated || b.id - a.id);
	const n = newest.length;
	const lines = newest.slice(0, LISTED_TITLES).map((a) => a.title || m.alert_untitled());
	if (n > LISTED_TITLES) lines.push(m.alert_more({ count: n - LISTED_TITLES }));
	if (afterQuiet) lines.unshift(m.alert_quiet());
	const first = newest[0];
	return {
		ruleId: source.id,
		tag: source.tag,
		title: m.alert_title({ count: n, label: source.label }),
		body: lines.join('\n'),
		path: n === 1 && first ? source.articlePath(first) : source.listPath,
		articleIds: newest.map((a) => a.id)
	};
}

function noticeOf(rule: AlertRule, articles: AlertArticle[], afterQuiet: boolean): AlertNotice {
	const source: NoticeSource = {
		id: rule.id,
		tag: `alert:${rule.id}`,
		label: ruleLabel(rule),
		listPath: listPath(rule),
		articlePath: (article) => articlePath(rule, article)
	};
	return noticeFor(source, articles, afterQuiet);
}

export function planAlerts(input: PlanInput): Plan {
	const { rules, arrived, articles, seen, categoriesOf, quiet } = input;
	const pending: Record<string, number[]> = {};
	const notices: AlertNotice[] = [];
	const taken = new Set<number>();
	// Oldest first, so the first rule to match an article is the same in every run.
	const byId = [...new Set(arrived)]
		.sort((a, b) => a - b)
		.map((id) => articles.get(id))
		.filter((a): a is AlertArticle => a !== undefined);
	const fresh = (a: AlertArticle): boolean => a.unread && !seen.has(a.id) && !taken.has(a.id);
	for (const rule of rules) {
		// Held through quiet hours: still news while unread. Not judged by the lists: a list the
		// reader left open behind another screen is refreshed by each sync and stores the held
		// article, which the reader never saw (the alerts e2e lost its quiet-hours summary so).
		const waiting = (input.pending[rule.id] ?? [])
			.map((id) => articles.get(id))
			.filter((a): a is AlertArticle => a !== undefined && a.unread && !taken.has(a.id));
		waiting.forEach((a) => taken.add(a.id));
		const matched = byId.filter((a) => fresh(a) && ruleMatches(rule, a, categoriesOf));
		matched.forEach((a) => taken.add(a.id));
		if (quiet) {
			const held = [...waiting, ...matched].map((a) => a.id);
			if (held.length > 0) pending[rule.id] = held;
			continue;
		}
		const all = [...waiting, ...matched];
		if (all.length > 0) notices.push(noticeOf(rule, all, waiting.length > 0));
	}
	return { notices, pending };
}
