/**
 * The app's icon set (Icon.svelte draws them): hand-drawn 24×24 paths, stroked in currentColor.
 * Here the icons a first screen can draw (the list and its head, the tree, the app's bar); the
 * article's and the selection's are in icon-paths-later.ts, which their code imports, so the
 * first screen's JS stays within its 80 KB with the shapes in it.
 */
import type { LaterIconName } from './icon-paths-later';

/** Each icon's paths (stroked; `fill:` before a path fills it instead). */
export type IconPaths = Record<string, readonly string[]>;

export const ICONS = {
	star: ['M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z'],
	'star-filled': [
		'fill:M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z'
	],
	publish: ['M12 15V4', 'M7.5 8.5 12 4l4.5 4.5', 'M5 14v5h14v-5'],
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
	close: ['M6 6l12 12', 'M18 6 6 18'],
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
	'check-all': ['M2.5 12.5l4.5 4.5L16 8', 'M12 16l1 1L22 8']
} as const satisfies IconPaths;

export type IconName = keyof typeof ICONS | LaterIconName;

/**
 * One icon as Icon.svelte draws it: its stroked paths joined into one `d`, its filled ones into
 * another (each path starts with an absolute `M`, so joined they are the same subpaths). Two path
 * elements at most per icon instead of one per stroke: a list row's icons are most of a phone's
 * first screen's elements, and each element costs the cold start its time.
 */
export interface IconShape {
	stroke: string;
	fill: string;
}

export function shapeOf(paths: readonly string[]): IconShape {
	const join = (filled: boolean) =>
		paths
			.filter((d) => d.startsWith('fill:') === filled)
			.map((d) => (filled ? d.slice(5) : d))
			.join('');
	return { stroke: join(false), fill: join(true) };
}

/** Each icon's shape. */
export function shapesOf(set: IconPaths): Record<string, IconShape> {
	return Object.fromEntries(Object.entries(set).map(([name, paths]) => [name, shapeOf(paths)]));
}
