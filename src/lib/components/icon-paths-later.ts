/**
 * The icons only the article and the selection draw (icons.ts has the first screen's): loaded with
 * their code, which imports this module, and by Icon.svelte when one is asked for before it is in
 * (icon-shapes.svelte.ts). Evaluating it adds them to the shapes Icon.svelte draws.
 */
import { addIcons } from './icon-shapes.svelte';
import type { IconPaths } from './icon-paths';

export const LATER_ICONS = {
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
	up: ['M5 15l7-7 7 7'],
	down: ['M5 9l7 7 7-7'],
	check: ['M4 12.5l5 5L20 6.5'],
	'select-all': ['M4 4h16v16H4z', 'M8 12l3 3 5-6'],
	// Full text: a page of lines.
	'full-text': ['M6 3.5h9l3 3v14H6z', 'M9 9.5h6', 'M9 12.5h6', 'M9 15.5h6'],
	speak: ['M4 9.5h3.5L12 5.5v13l-4.5-4H4z', 'M15.5 9a4 4 0 0 1 0 6', 'M18 6.5a7.5 7.5 0 0 1 0 11']
} as const satisfies IconPaths;

export type LaterIconName = keyof typeof LATER_ICONS;

addIcons(LATER_ICONS);
