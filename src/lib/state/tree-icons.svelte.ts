// Feed icons that failed to load (the tree then shows a neutral dot). A state object rather than a
// SvelteSet: a SvelteSet's `has` of an id it lacks depends on every addition, so each failed icon
// re-ran the icon of every row; with 1,000 feeds without icons, whose lazy images fail one by one
// as the tree scrolls, that made long tasks of up to 0.4 s. A property read depends on its own id.
const failed: Record<number, true> = $state({});

export function iconFailed(feedId: number): boolean {
	return failed[feedId] === true;
}

export function markIconFailed(feedId: number): void {
	failed[feedId] = true;
}
