/** The app's icon set (Icon.svelte draws them): hand-drawn 24×24 paths, stroked in currentColor. */
/** Each icon's paths (stroked; `fill:` before a path fills it instead). */
export const ICONS = {
	star: ['M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z'],
	'star-filled': [
		'fill:M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z'
	],
	publish: ['M12 15V4', 'M7.5 8.5 12 4l4.5 4.5', 'M5 14v5h14v-5'],
	read: ['M4 12.5l5 5L20 6.5'],
	unread: ['fill:M12 7a5 5 0 1 0 0 10 5 5 0 1 0 0-10z'],
	label: [
		'M3.5 12.2V4.5a1 1 0 0 1 1-1h7.7l8.3 8.3-8.7 8.7z',
		'fill:M8 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 1 0 0-3z'
	],
	note: ['M4 20h4L19 9l-4-4L4 16z', 'M13.5 6.5l4 4'],
	share: [
		'M18 3.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 1 0 0-5z',
		'M6 9.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 1 0 0-5z',
		'M18 15.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 1 0 0-5z',
		'M8.2 10.8l7.6-4.1',
		'M8.2 13.2l7.6 4.1'
	],
	external: ['M14 4h6v6', 'M20 4l-9 9', 'M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5'],
	more: [
		'fill:M5 10.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 1 0 0-3z',
		'fill:M12 10.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 1 0 0-3z',
		'fill:M19 10.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 1 0 0-3z'
	],
	search: ['M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 1 0 0-13z', 'M15.5 15.5 20 20'],
	filter: ['M4 5h16l-6 7.5V19l-4-2v-4.5z'],
	sort: ['M7 4v16', 'M3.5 16.5 7 20l3.5-3.5', 'M13 6h8', 'M13 11h6', 'M13 16h4'],
	refresh: ['M19.5 12a7.5 7.5 0 1 1-2.2-5.3', 'M19.5 4v4.5H15'],
	back: ['M15 5l-7 7 7 7'],
	up: ['M5 15l7-7 7 7'],
	down: ['M5 9l7 7 7-7'],
	close: ['M6 6l12 12', 'M18 6 6 18'],
	check: ['M4 12.5l5 5L20 6.5'],
	'check-all': ['M2.5 12.5l4.5 4.5L16 8', 'M12 16l1 1L22 8'],
	'select-all': ['M4 4h16v16H4z', 'M8 12l3 3 5-6'],
	settings: [
		'M12 9a3 3 0 1 0 0 6 3 3 0 1 0 0-6z',
		'M12 2.5v3',
		'M12 18.5v3',
		'M2.5 12h3',
		'M18.5 12h3',
		'M5.3 5.3l2.1 2.1',
		'M16.6 16.6l2.1 2.1',
		'M5.3 18.7l2.1-2.1',
		'M16.6 7.4l2.1-2.1'
	],
	plus: ['M12 5v14', 'M5 12h14'],
	help: [
		'M12 3a9 9 0 1 0 0 18 9 9 0 1 0 0-18z',
		'M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.5v.7',
		'fill:M12 16.3a1.1 1.1 0 1 0 0 2.2 1.1 1.1 0 1 0 0-2.2z'
	],
	speak: ['M4 9.5h3.5L12 5.5v13l-4.5-4H4z', 'M15.5 9a4 4 0 0 1 0 6', 'M18 6.5a7.5 7.5 0 0 1 0 11']
} as const satisfies Record<string, readonly string[]>;

export type IconName = keyof typeof ICONS;

/**
 * One icon as Icon.svelte draws it: its stroked paths joined into one `d`, its filled ones into
 * another (each path starts with an absolute `M`, so joined they are the same subpaths). Two path
 * elements at most per icon instead of one per stroke: a list row's icons are most of a phone's
 * first screen's elements (issue 27's cold start), and each element costs its start.
 */
export interface IconShape {
	stroke: string;
	fill: string;
}

function shapeOf(paths: readonly string[]): IconShape {
	const join = (filled: boolean) =>
		paths
			.filter((d) => d.startsWith('fill:') === filled)
			.map((d) => (filled ? d.slice(5) : d))
			.join('');
	return { stroke: join(false), fill: join(true) };
}

/** Each icon's shape, made once. */
export const ICON_SHAPES = Object.fromEntries(
	Object.entries(ICONS).map(([name, paths]) => [name, shapeOf(paths)])
) as Record<IconName, IconShape>;
