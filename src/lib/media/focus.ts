/**
 * One thing plays at a time: an enclosure, another enclosure, or the read-aloud voice. Whoever
 * starts takes the focus and the previous holder is told to stop, as a phone's audio focus does.
 */
type Stop = () => void;

let holder: Stop | undefined;

/** Takes the focus; `stop` is called when something else takes it. Returns the release. */
export function takeAudioFocus(stop: Stop): () => void {
	if (holder && holder !== stop) {
		const previous = holder;
		holder = stop;
		previous();
	} else {
		holder = stop;
	}
	return () => {
		if (holder === stop) holder = undefined;
	};
}

let continuePlaying = false;

/**
 * The lock screen's "next" opens the next article: its first enclosure then starts by itself,
 * once, as a podcast app moves to the next episode.
 */
export function playNextOnOpen(): void {
	continuePlaying = true;
}

/** Whether the player being shown should start at once (asked once per "next"). */
export function takeContinuePlaying(): boolean {
	const value = continuePlaying;
	continuePlaying = false;
	return value;
}
