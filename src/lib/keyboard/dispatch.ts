/**
 * What each keyboard shortcut does (shortcuts.ts says which key means which command). The screen
 * it acts on comes in as a `KeyboardHost`, so this file knows nothing of the router and the rules
 * (j at the end of the loaded rows loads more, Shift+J wraps around the tree, Escape only closes
 * an open article, a modal dialog keeps its keys) are unit tested without a page.
 */
import type { ArticleFlag, ArticleRef, Side } from '$lib/outbox/intent';
import type { ListKind } from '../../params/kind';
import { commandFor, type Command } from './shortcuts';

/** A place in the feed tree, as "next/previous feed" walks it. */
export interface KeyboardPlace {
	kind: 'feed' | 'cat';
	id: number;
}

/** The screen the shortcuts act on; the app layout builds it from the router and the state. */
export interface KeyboardHost {
	/** The address's list (`kind`/`id`) and open article, as strings like the route's params. */
	where(): { kind?: ListKind; id?: string; article?: string };
	/** A headline list is on screen (with or without an article). */
	inList(): boolean;
	/** An article is open. */
	articleOpen(): boolean;
	/** The headline list on screen. */
	list: {
		readonly items: readonly { id: number }[];
		readonly complete: boolean;
		indexOf(articleId: number): number;
		loadMore(): Promise<void>;
	};
	/** Every feed and category in tree order (the reader's "hide empty" applied). */
	places(): readonly KeyboardPlace[];
	/** The open article, when one is. */
	article(): (ArticleRef & { link?: string }) | undefined;
	setFlag(refs: ArticleRef[], flag: ArticleFlag, value: boolean): Promise<unknown>;
	/** Marks read the unread loaded rows on one side of an article (state/actions.ts). */
	markBesideRead(articleId: number, side: Side): Promise<unknown>;
	openList(kind: ListKind, id: string): Promise<void>;
	openArticle(kind: ListKind, id: string, articleId: number): Promise<void>;
	/** Opens the article's original page, already checked by the URL rule, in a new tab. */
	openOriginal(url: string): void;
	refresh(): Promise<void>;
	focusSearch(): void;
	focusListTitle(): void;
	showHelp(): void;
	/** A modal dialog is open: it handles its own keys (Escape closes it). */
	dialogOpen(): boolean;
	/** The URL rule for links (content/url.ts `safeUrl`). */
	safeLink(url: string | undefined): string | undefined;
	/**
	 * The headline row holding `from` (the key's target; else the keyboard's focus), if any: `x`
	 * picks it before the open one.
	 */
	focusedArticle?(from?: EventTarget | null): number | undefined;
	/** The rows picked for a bulk action (state/selection.svelte.ts); Escape clears them first. */
	selection?: { readonly active: boolean; toggle(id: number): void; clear(): void };
}

/** The place `direction` steps from the current one, wrapping around the tree. */
export function stepPlace(
	places: readonly KeyboardPlace[],
	current: { kind?: ListKind; id?: string },
	direction: 1 | -1
): KeyboardPlace | undefined {
	if (places.length === 0) return undefined;
	const index = places.findIndex((p) => p.kind === current.kind && String(p.id) === current.id);
	return places[(index + direction + places.length) % places.length] ?? places[0];
}

async function stepArticle(host: KeyboardHost, direction: 1 | -1): Promise<void> {
	if (!host.inList()) return;
	const list = host.list;
	const where = host.where();
	const index = list.indexOf(Number(where.article ?? NaN));
	let target = index === -1 ? (direction === 1 ? 0 : -1) : index + direction;
	if (target >= list.items.length && direction === 1 && !list.complete) {
		await list.loadMore();
		target = Math.min(target, list.items.length - 1);
	}
	const next = list.items[target];
	if (!next || !where.kind || !where.id) return;
	await host.openArticle(where.kind, where.id, next.id);
}

async function stepFeed(host: KeyboardHost, direction: 1 | -1): Promise<void> {
	const target = stepPlace(host.places(), host.where(), direction);
	if (!target) return;
	await host.openList(target.kind, String(target.id));
	host.focusListTitle();
}

/** Carries out one command on the host's screen. */
export async function runCommand(
	host: KeyboardHost,
	command: Command,
	/** Where the key was pressed: a key held until the shortcuts load is acted on where it was. */
	from?: EventTarget | null
): Promise<void> {
	const article = host.articleOpen() ? host.article() : undefined;
	switch (command) {
		case 'nextArticle':
			return stepArticle(host, 1);
		case 'previousArticle':
			return stepArticle(host, -1);
		case 'nextFeed':
			return stepFeed(host, 1);
		case 'previousFeed':
			return stepFeed(host, -1);
		case 'toggleStar':
			if (article) await host.setFlag([article], 'starred', !article.marked);
			return;
		case 'togglePublished':
			if (article) await host.setFlag([article], 'published', !article.published);
			return;
		case 'toggleRead':
			if (article) await host.setFlag([article], 'unread', !article.unread);
			return;
		case 'openOriginal': {
			const link = host.safeLink(article?.link);
			if (link) host.openOriginal(link);
			return;
		}
		case 'refresh':
			return host.refresh();
		case 'search':
			host.focusSearch();
			return;
		case 'closeArticle': {
			if (host.selection?.active) {
				host.selection.clear();
				return;
			}
			const { kind, id } = host.where();
			if (host.articleOpen() && kind && id) await host.openList(kind, id);
			return;
		}
		case 'markAboveRead':
		case 'markBelowRead':
			if (article && host.inList()) {
				await host.markBesideRead(article.id, command === 'markAboveRead' ? 'above' : 'below');
			}
			return;
		case 'toggleSelect': {
			const target = host.focusedArticle?.(from) ?? article?.id;
			if (target !== undefined && host.inList()) host.selection?.toggle(target);
			return;
		}
		case 'help':
			host.showHelp();
			return;
		case 'undo':
			// The toast offering the Undo takes the key itself (Toasts.svelte).
			return;
	}
}

/** The window's keydown handler: a shortcut's key is taken from the browser only when it acts. */
export function keydownHandler(host: KeyboardHost): (event: KeyboardEvent) => void {
	return (event) => {
		if (host.dialogOpen()) return;
		const command = commandFor(event);
		if (!command || command === 'undo') return;
		// Without an open article these keys are the browser's (Shift+↑/↓ select text).
		const needsArticle = ['closeArticle', 'markAboveRead', 'markBelowRead'].includes(command);
		const clearsSelection = command === 'closeArticle' && host.selection?.active === true;
		if (needsArticle && !host.articleOpen() && !clearsSelection) return;
		event.preventDefault();
		void runCommand(host, command, event.target);
	};
}
