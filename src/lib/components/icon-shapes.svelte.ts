/**
 * The shapes Icon.svelte draws, by name: the first screen's (icons.ts) at once, the others
 * (icons-later.ts) once their module is in. Reactive, so an icon asked for before then is drawn
 * when it arrives; asking for one that is not in yet loads the module.
 */
import { ICONS, shapesOf, type IconName, type IconShape } from './icons';

let shapes = $state.raw<Partial<Record<IconName, IconShape>>>(shapesOf(ICONS));
let later: Promise<void> | undefined;

/** Loads the article's and the selection's icons (once); resolves when they can be drawn. */
export function loadLaterIcons(): Promise<void> {
	return (later ??= import('./icons-later').then(({ LATER_ICONS }) => {
		shapes = { ...shapes, ...shapesOf(LATER_ICONS) };
	}));
}

/** The icon's shape; undefined until its module is in (it is then being loaded). */
export function iconShape(name: IconName): IconShape | undefined {
	const shape = shapes[name];
	if (!shape) void loadLaterIcons();
	return shape;
}
