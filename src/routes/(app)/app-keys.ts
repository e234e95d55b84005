/**
 * The app's keyboard shortcuts (src/lib/keyboard/dispatch.ts), wired by the app layout
 * (+layout.svelte) to the router and the state: they act on what the address shows. Loaded after
 * the first screen (the first screen's JS stays within its budget); a key pressed before that is
 * acted on as soon as they are there (only the browser's own default is not held back).
 */
import { goto } from '$app/navigation';
import { resolve } from '$app/paths';
import { page } from '$app/state';
import { afterFirstScreen } from '$lib/boot/early-reads';
import { safeUrl } from '$lib/content/url';
import type { KeyboardHost } from '$lib/keyboard/dispatch';
import { loadActions, markBesideReadSoon, setFlagSoon } from '$lib/state/actions-soon';
import { articleState } from '$lib/state/article.svelte';
import { headlines } from '$lib/state/headlines.svelte';
import { selection } from '$lib/state/selection.svelte';
import { settings } from '$lib/state/settings.svelte';
import { shownRows } from '$lib/state/shown-rows.svelte';
import { treeState } from '$lib/state/tree.svelte';
import { refreshAll, ui } from '$lib/state/ui.svelte';

/** The layout's keydown handler; `where` says which screens are open. */
export function appKeys(where: {
	inList: () => boolean;
	articleOpen: () => boolean;
}): (event: KeyboardEvent) => void {
	let onKeydown: ((event: KeyboardEvent) => void) | undefined;
	const early: KeyboardEvent[] = [];
	const keyboardHost: KeyboardHost = {
		where: () => page.params,
		inList: where.inList,
		articleOpen: where.articleOpen,
		// j/k step through the rows the list shows (no muted rows, no copies of a story shown once).
		list: {
			get items() {
				return shownRows.rows;
			},
			get complete() {
				return headlines.complete;
			},
			indexOf: (articleId) => shownRows.indexOf(articleId),
			loadMore: () => headlines.loadMore()
		},
		places: () => treeState.places(settings.values.hideEmpty),
		article: () => articleState.article,
		setFlag: setFlagSoon,
		markBesideRead: markBesideReadSoon,
		openList: (kind, id) => goto(resolve('/(app)/[kind=kind]/[id]', { kind, id })),
		// The article's heading takes the focus after its first paint (ArticleHeader.svelte): the
		// router's own focus reset before it laid the page out in the key's task, which the key then waited for.
		openArticle: (kind, id, article) =>
			goto(resolve('/(app)/[kind=kind]/[id]/[article]', { kind, id, article: String(article) }), {
				keepFocus: true
			}),
		openOriginal: (url) => window.open(url, '_blank', 'noopener,noreferrer'),
		refresh: refreshAll,
		focusSearch: () => ui.focusSearch?.(),
		focusListTitle: () => document.getElementById('list-title')?.focus(),
		showHelp: () => (ui.helpOpen = true),
		dialogOpen: () => document.querySelector('dialog[open]') !== null,
		safeLink: (url) => safeUrl(url, 'link'),
		focusedArticle: (from) => {
			const element = from instanceof Element ? from : document.activeElement;
			const row = element?.closest('[data-article-id]');
			return row ? Number(row.getAttribute('data-article-id')) : undefined;
		},
		selection
	};
	void afterFirstScreen()
		.then(() => Promise.all([import('$lib/keyboard/dispatch'), loadActions()]))
		.then(([{ keydownHandler }]) => {
			onKeydown = keydownHandler(keyboardHost);
			for (const event of early.splice(0)) onKeydown(event);
		});
	return (event) => {
		if (onKeydown) onKeydown(event);
		else early.push(event);
	};
}
