/**
 * A headline row's swipe and long press, apart from the row's markup, so the row draws and this acts: what a swipe
 * does (state/swipe.svelte.ts, with the actions it runs) and the gestures themselves
 * (gestures/swipe-press.ts) are loaded once the first screen is shown, or at the first press on a
 * row, not with the first screen. A row makes one `RowSwipe`, puts `attachment` on its element,
 * draws `gesture` and `hint`, and asks `swallowClick()` before its link acts.
 */
import type { Attachment } from 'svelte/attachments';
import type { Headline } from '$lib/api';
import { afterFirstScreen } from '$lib/boot/early-reads';
import { whenAllMessages } from '$lib/i18n/m';
import type { SwipePress, SwipeState } from '$lib/gestures/swipe-press';
import type { SwipeHint, Swipes } from '$lib/state/swipe.svelte';

type Gestures = typeof import('$lib/gestures/swipe-press');

/** Shared by every row: loaded once. */
let swipes = $state<Swipes | undefined>();
let gestures = $state<Gestures | undefined>();
let swipesLoading: Promise<void> | undefined;

function loadSwipes(): Promise<void> {
	// The hints' words (`swipe_`, `article_`) are the later module's: loaded with the code.
	swipesLoading ??= Promise.all([import('$lib/state/swipe.svelte'), whenAllMessages()]).then(
		([m]) => void (swipes = m.swipes)
	);
	return swipesLoading;
}

const loaded = afterFirstScreen().then(() =>
	Promise.all([
		loadSwipes(),
		import('$lib/gestures/swipe-press').then((m) => void (gestures = m))
	]).then(() => undefined)
);

/** Resolves once rows take swipes (after the first screen): for tests. */
export function rowSwipeReady(): Promise<void> {
	return loaded;
}

export interface RowSwipeOptions {
	/** The row's headline now (props change under a row the virtual list reuses). */
	headline: () => Headline;
	/** Picks the row, when the list lets rows be picked: a long press (touch or pen) on the row's link does. */
	onSelect: () => ((how: 'toggle') => void) | undefined;
}

export class RowSwipe {
	/** The row's offset, whether it is being swiped, and whether letting go would act. */
	gesture = $state<SwipeState>({ dx: 0, swiping: false, armed: false });
	/** What letting go would do (a swipe left reveals the right edge, and the other way round). */
	readonly hint: SwipeHint | undefined = $derived.by(() => {
		const { dx } = this.gesture;
		if (dx === 0) return undefined;
		return swipes?.hint(dx < 0 ? 'left' : 'right', this.row.headline());
	});
	private machine: SwipePress | undefined;

	constructor(private readonly row: RowSwipeOptions) {}

	/** The row element's attachment, once the gestures' module is in (until then, none). */
	get attachment(): Attachment<HTMLElement> | undefined {
		return gestures && gestures.swipePress(this.machineOf(gestures));
	}

	/**
	 * Whether the row takes swipes yet (both modules are in): the row says so in the page
	 * (`data-swipe-ready`), so a test presses only once a swipe can be seen; a press before would
	 * be a click.
	 */
	get ready(): boolean {
		return gestures !== undefined && swipes !== undefined;
	}

	/** Whether the click now arriving ends a swipe or a long press (it must not act); asks once. */
	swallowClick(): boolean {
		return (
			this.machine !== undefined && gestures !== undefined && gestures.swallowClick(this.machine)
		);
	}

	private machineOf(g: Gestures): SwipePress {
		const { row } = this;
		this.machine ??= new g.SwipePress({
			canSwipe: (side) => swipes !== undefined && swipes.values[side] !== 'none',
			onSwipe: (side) => void swipes?.run(side, row.headline()),
			// Only on the row's link: its buttons and box keep their own presses.
			canLongPress: (target) =>
				row.onSelect() !== undefined &&
				target instanceof Element &&
				target.closest('.link') !== null,
			onLongPress: () => {
				g.swallowNextLift();
				row.onSelect()?.('toggle');
			},
			onChange: (state) => (this.gesture = state),
			onArm: g.tick,
			onPress: () => void loadSwipes()
		});
		return this.machine;
	}
}
