/**
 * The shapes Icon.svelte draws, by name: the first screen's (icon-paths.ts) at once, the others
 * (icon-paths-later.ts) as that module is evaluated (it adds them here): the article's and the
 * selection's components import it, so their icons are here when they first draw. Reactive, so an
 * icon asked for before then (Icon.svelte then loads the module) is drawn when it arrives.
 */
import { ICONS, shapesOf, type IconName, type IconPaths, type IconShape } from './icon-paths';

let shapes = $state.raw<Partial<Record<IconName, IconShape>>>(shapesOf(ICONS));

/** Adds a set's shapes (icon-paths-later.ts, as it is evaluated). */
export function addIcons(set: IconPaths): void {
	shapes = { ...shapes, ...shapesOf(set) };
}

/** The icon's shape; undefined until its module is in. */
export function iconShape(name: IconName): IconShape | undefined {
	return shapes[name];
}
