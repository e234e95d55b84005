// What a change says to the reader, apart from the intents themselves (intent.ts, on the first
// screen): only Settings' pending changes, the sign-in page and the sign-out question describe a
// change, and they load this with the later module's words (`settings_change_`).
import type { CatchupMode } from '$lib/api';
import { formatLocale, m } from '$lib/i18n/m';
import type { Intent, IntentNames } from './intent';

const NO_NAMES: IntentNames = { articles: new Map(), titles: new Map() };

const AGE_TEXT: Record<CatchupMode, () => string> = {
	all: () => '',
	'1day': () => m.settings_change_catchup_day(),
	'1week': () => m.settings_change_catchup_week(),
	'2week': () => m.settings_change_catchup_two_weeks()
};

function when(at: number, locale: string | undefined): string {
	return new Intl.DateTimeFormat(locale ?? formatLocale(), {
		day: 'numeric',
		month: 'short',
		hour: '2-digit',
		minute: '2-digit'
	}).format(at);
}

/**
 * A short description for the pending/failed lists, with article titles, label and feed names
 * where the cache knows them ("Add label “Later” to “Some title”"), and for a catch-up what it
 * will do ("Mark read the articles of “Feed X” you could see on 23 Nov, 14:02"). Its words are the
 * later module's (`settings_change_`): the places that show it (Settings, sign-in, the sign-out
 * question) have loaded it.
 */
export function describeIntent(
	intent: Intent,
	names: IntentNames = NO_NAMES,
	locale?: string
): string {
	const article = (id: number): string => {
		const title = names.articles.get(id);
		return title ? m.settings_change_quoted({ title }) : m.settings_change_article_id({ id });
	};
	const n = (ids: readonly number[]): string =>
		ids.length === 1
			? article(ids[0] as number)
			: m.settings_change_articles({ count: ids.length });
	switch (intent.type) {
		case 'flag': {
			const what = n(intent.articleIds);
			if (intent.field === 'unread') {
				return intent.value
					? m.settings_change_mark_unread({ what })
					: m.settings_change_mark_read({ what });
			}
			if (intent.field === 'starred') {
				return intent.value
					? m.settings_change_mark_starred({ what })
					: m.settings_change_mark_unstarred({ what });
			}
			return intent.value
				? m.settings_change_mark_published({ what })
				: m.settings_change_mark_unpublished({ what });
		}
		case 'note': {
			const what = article(intent.articleId);
			return intent.note === ''
				? m.settings_change_note_removed({ what })
				: m.settings_change_note({ what });
		}
		case 'label': {
			const title = names.titles.get(`feed:${intent.labelId}`);
			const label = title
				? m.settings_change_label_titled({ title })
				: m.settings_change_label_id({ id: intent.labelId });
			const what = n(intent.articleIds);
			return intent.assign
				? m.settings_change_label_add({ label, what })
				: m.settings_change_label_remove({ label, what });
		}
		case 'catchup': {
			const kind = intent.isCat ? 'cat' : 'feed';
			const title =
				typeof intent.feedId === 'string' && !/^-?\d+$/.test(intent.feedId)
					? `#${intent.feedId}`
					: names.titles.get(`${kind}:${String(intent.feedId)}`);
			const id = String(intent.feedId);
			const scope = title
				? m.settings_change_quoted({ title })
				: intent.isCat
					? m.settings_change_scope_category({ id })
					: m.settings_change_scope_feed({ id });
			const search = intent.search
				? m.settings_change_catchup_search({ search: intent.search })
				: '';
			const seen =
				intent.maxId !== undefined && intent.at !== undefined
					? m.settings_change_catchup_seen({ date: when(intent.at, locale) })
					: '';
			return m.settings_change_catchup({
				scope,
				details: `${search}${AGE_TEXT[intent.mode]()}${seen}`
			});
		}
		case 'share':
			return m.settings_change_share({ title: intent.title });
		case 'setting':
			return m.settings_change_setting();
	}
}
