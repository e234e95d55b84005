/**
 * Which special feeds the tree shows and in what order (Settings → Special feeds), kept per
 * device in the `settings` store (`tree.special`), not per account: it is how this screen looks.
 */
import { getStored, putStored, storedKey } from '$lib/db/kv';
import {
	DEFAULT_SPECIAL_CHOICE,
	parseSpecialChoice,
	type SpecialFeedsChoice
} from '$lib/tree/special';

export const SPECIAL_FEEDS = storedKey<SpecialFeedsChoice>({
	store: 'settings',
	name: 'tree.special',
	owner: 'state/special-feeds.svelte.ts',
	parse: parseSpecialChoice,
	fallback: () => ({ ...DEFAULT_SPECIAL_CHOICE })
});

class SpecialFeeds {
	#choice = $state.raw<SpecialFeedsChoice>(DEFAULT_SPECIAL_CHOICE);
	#loaded: Promise<void> | undefined;

	get choice(): SpecialFeedsChoice {
		return this.#choice;
	}

	/** Reads the stored choice once per page (the tree shows the default until then). */
	load(): Promise<void> {
		this.#loaded ??= getStored(SPECIAL_FEEDS)
			.then((choice) => {
				this.#choice = choice;
			})
			.catch(() => undefined);
		return this.#loaded;
	}

	async save(choice: SpecialFeedsChoice): Promise<void> {
		this.#choice = choice;
		await putStored(SPECIAL_FEEDS, choice);
	}
}

export const specialFeeds = new SpecialFeeds();
