/**
 * What the open headline list shows: the loaded rows (`headlines.items`) less the ones muted words
 * hide (mute/, unless the reader asked to see them) and less the copies of a story shown once
 * (dedupe/, unless the reader turned it off in Settings → Reading). Both are worked out here, on
 * the device, so online and offline (cached) lists alike are filtered the same way.
 *
 * The list, the article's next/previous, the keys, mark above/below, read-on-scroll and the
 * selection all index `shownRows.rows`, not `headlines.items`. A change to a row's read flag takes
 * its copies with it (`withCopies`, used by state/actions.ts setFlag): one intent with every id.
 *
 * The grouping code is loaded after the first screen (its JS stays within its budget): until then
 * the rows are shown as they are.
 */
import type { Headline } from '$lib/api';
import { afterFirstScreen } from '$lib/boot/early-reads';
import type { Duplicates, DuplicatesMemo } from '$lib/dedupe/dedupe';
import { mute } from '$lib/mute/mute.svelte';
import { headlines } from './headlines.svelte';
import { settings } from './settings.svelte';
import { treeState } from './tree.svelte';

type Dedupe = typeof import('$lib/dedupe/dedupe');

const NONE: Duplicates<Headline> = { shown: [], copies: new Map(), shownFor: new Map() };

class ShownRows {
	#group = $state.raw<DuplicatesMemo | undefined>();
	#loading: Promise<Dedupe> | undefined;

	/** The loaded rows split by the muted words. */
	readonly muted = $derived(mute.split(headlines.items));

	/** The groups of the rows the list would show without duplicates taken out. */
	readonly groups = $derived.by((): Duplicates<Headline> => {
		const base = mute.showHidden ? headlines.items : this.muted.shown;
		const group = this.#group;
		if (!settings.values.collapseDuplicates || !group) return { ...NONE, shown: [...base] };
		return group(base);
	});

	/** The rows the list shows, in its order. */
	get rows(): Headline[] {
		return this.groups.shown;
	}

	/** Loads the grouping code (after the first screen, or now); resolves once it is there. */
	load(): Promise<Dedupe> {
		return (this.#loading ??= import('$lib/dedupe/dedupe').then((m) => {
			this.#group = m.duplicatesMemo();
			return m;
		}));
	}

	/** How many times the list's rows were grouped anew (a read or a star does not regroup them). */
	get regrouped(): number {
		return this.#group?.regrouped ?? 0;
	}

	/** The other rows of this row's story (none when it has no copies). */
	copiesOf(id: number): Headline[] {
		const groups = this.groups;
		const head = groups.shownFor.get(id);
		if (head === undefined) return [];
		const all = [headlines.find(head), ...(groups.copies.get(head) ?? [])];
		return all.filter((h): h is Headline => h !== undefined && h.id !== id);
	}

	/**
	 * The feeds of this row's copies, each once, not the row's own: where else the story is, and
	 * what a read of it takes along ("Also in", "Also marks read").
	 */
	copyFeeds(id: number): string[] {
		const row = headlines.find(id);
		const own = row ? treeState.feedTitleOf(row) : undefined;
		const titles: string[] = [];
		for (const copy of this.copiesOf(id)) {
			const name = treeState.feedTitleOf(copy);
			if (name && name !== own && !titles.includes(name)) titles.push(name);
		}
		return titles;
	}

	/** The refs and every copy of each (once, after them): what a read change covers. */
	withCopies<T extends { id: number }>(refs: readonly T[]): (T | Headline)[] {
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, never rendered
		const ids = new Set(refs.map((r) => r.id));
		const out: (T | Headline)[] = [...refs];
		for (const ref of refs) {
			for (const copy of this.copiesOf(ref.id)) {
				if (ids.has(copy.id)) continue;
				ids.add(copy.id);
				out.push(copy);
			}
		}
		return out;
	}

	/**
	 * Where the row of this article is in `rows`: a copy is where its story's row is; -1 when the
	 * list does not hold it.
	 */
	indexOf(id: number): number {
		const target = this.groups.shownFor.get(id) ?? id;
		return this.rows.findIndex((h) => h.id === target);
	}

	/**
	 * The rows a scroll went past: the loaded rows before the first `shownBefore` shown ones (muted
	 * rows among them too), less copies of a story whose row is further down. The copies of the rows
	 * passed come with them through `withCopies`.
	 */
	passed(shownBefore: number): Headline[] {
		const last = this.rows[shownBefore - 1];
		if (last === undefined) return [];
		const end = headlines.indexOf(last.id) + 1;
		const passedIds = new Set(this.rows.slice(0, shownBefore).map((h) => h.id));
		const shownFor = this.groups.shownFor;
		return headlines.items.slice(0, end).filter((h) => {
			const head = shownFor.get(h.id);
			return head === undefined || passedIds.has(head);
		});
	}
}

export const shownRows = new ShownRows();

void afterFirstScreen().then(() => shownRows.load());
