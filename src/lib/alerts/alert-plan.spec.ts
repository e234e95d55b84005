import { describe, expect, it } from 'vitest';
import { planAlerts, type AlertArticle, type PlanInput } from './alert-plan';
import { wordsRuleId, type AlertRule } from './rules';

const podcasts: AlertRule = { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' };
const world: AlertRule = { id: 'cat:3', kind: 'cat', catId: 3, title: 'World' };
const rust: AlertRule = {
	id: wordsRuleId(['rust'], false),
	kind: 'words',
	words: ['rust'],
	content: false,
	title: ''
};

function article(id: number, feedId: number, title = `Article ${id}`): AlertArticle {
	return { id, feedId, title, unread: true, updated: 1_000 + id };
}

/** A run where the articles above 10 arrived (the rest were considered before). */
function input(articles: AlertArticle[], overrides: Partial<PlanInput> = {}): PlanInput {
	return {
		rules: [podcasts],
		arrived: articles.filter((a) => a.id > 10).map((a) => a.id),
		pending: {},
		articles: new Map(articles.map((a) => [a.id, a])),
		seen: new Set(),
		categoriesOf: (feedId) => (feedId === 3 || feedId === 4 ? [3] : undefined),
		quiet: false,
		...overrides
	};
}

describe('alert plan', () => {
	it('groups a rule’s new articles in one notice: count, newest titles first, the list when several', () => {
		const plan = planAlerts(
			input([article(9, 4), ...[11, 12, 13, 14, 15].map((id) => article(id, 4)), article(16, 1)])
		);
		expect(plan.notices).toHaveLength(1);
		const [notice] = plan.notices;
		expect(notice?.title).toBe('5 new in Podcasts');
		expect(notice?.body).toBe('Article 15\nArticle 14\nArticle 13\nand 2 more');
		expect(notice?.tag).toBe('alert:feed:4');
		expect(notice?.path).toBe('feed/4');
		expect(notice?.articleIds).toEqual([15, 14, 13, 12, 11]);
		expect(plan.pending).toEqual({});
	});

	it('one article opens that article', () => {
		const [notice] = planAlerts(input([article(11, 4, 'Episode 6')])).notices;
		expect(notice?.title).toBe('New in Podcasts');
		expect(notice?.path).toBe('feed/4/11');
	});

	it('only what arrived: a run that claimed nothing (all considered before) is silent', () => {
		expect(planAlerts(input([article(11, 4), article(12, 4)], { arrived: [] })).notices).toEqual(
			[]
		);
	});

	it('an article that arrives after a newer one is news all the same (issue 55)', () => {
		const plan = planAlerts(input([article(11, 4), article(14, 4)], { arrived: [11] }));
		expect(plan.notices.map((n) => n.articleIds)).toEqual([[11]]);
	});

	it('an article matched by two rules is announced by the first only', () => {
		const plan = planAlerts(input([article(11, 4), article(12, 3)], { rules: [podcasts, world] }));
		expect(plan.notices.map((n) => [n.ruleId, n.articleIds])).toEqual([
			['feed:4', [11]],
			['cat:3', [12]]
		]);
	});

	it('read articles and articles in a list the reader had open are not news', () => {
		const read = { ...article(11, 4), unread: false };
		const plan = planAlerts(input([read, article(12, 4), article(13, 4)], { seen: new Set([12]) }));
		expect(plan.notices[0]?.articleIds).toEqual([13]);
	});

	it('search words: whole words in the title; the tap opens the article in its feed', () => {
		const plan = planAlerts(
			input([article(11, 2, 'Rust 2.0 released'), article(12, 2, 'Trusty old tools')], {
				rules: [rust]
			})
		);
		expect(plan.notices[0]?.title).toBe('New in “rust”');
		expect(plan.notices[0]?.path).toBe('feed/2/11');
	});

	it('what quiet hours held is summed up even once a list behind another screen stored it', () => {
		const quiet = planAlerts(input([article(11, 4)], { quiet: true }));
		expect(quiet.pending['feed:4']).toEqual([11]);
		// The sync refreshed the feed's list the reader had left open behind Settings.
		const after = planAlerts(
			input([article(11, 4)], { arrived: [], pending: quiet.pending, seen: new Set([11]) })
		);
		expect(after.notices[0]?.articleIds).toEqual([11]);
	});

	it('quiet hours hold the notice back; the first run after sums up what came meanwhile', () => {
		const quiet = planAlerts(input([article(11, 4), article(12, 4)], { quiet: true }));
		expect(quiet.notices).toEqual([]);
		expect(quiet.pending['feed:4']).toEqual([11, 12]);
		// After: nothing newer arrived; one of the two was read meanwhile.
		const after = planAlerts(
			input([{ ...article(11, 4), unread: false }, article(12, 4)], {
				arrived: [],
				pending: quiet.pending
			})
		);
		expect(after.notices).toHaveLength(1);
		expect(after.notices[0]?.body).toBe('Arrived during quiet hours:\nArticle 12');
		expect(after.pending).toEqual({});
	});
});
