/**
 * Keyboard shortcuts in tt-rss's habits. Pure: the app layout maps each command to an action.
 */
import { isTyping } from './typing';

export { isTyping };

export type Command =
	| 'nextArticle'
	| 'previousArticle'
	| 'nextFeed'
	| 'previousFeed'
	| 'toggleStar'
	| 'togglePublished'
	| 'toggleRead'
	| 'openOriginal'
	| 'refresh'
	| 'search'
	| 'closeArticle'
	| 'markAboveRead'
	| 'markBelowRead'
	| 'toggleSelect'
	| 'undo'
	| 'help';

export interface Shortcut {
	/** As shown to the reader. */
	keys: string[];
	command: Command;
	description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
	{ keys: ['j', 'n'], command: 'nextArticle', description: 'Next article' },
	{ keys: ['k', 'p'], command: 'previousArticle', description: 'Previous article' },
	{ keys: ['Shift+J'], command: 'nextFeed', description: 'Next feed' },
	{ keys: ['Shift+K'], command: 'previousFeed', description: 'Previous feed' },
	{ keys: ['s'], command: 'toggleStar', description: 'Star or unstar the article' },
	{
		keys: ['Shift+P'],
		command: 'togglePublished',
		description: 'Publish or unpublish the article'
	},
	{ keys: ['u'], command: 'toggleRead', description: 'Mark the article read or unread' },
	{ keys: ['o', 'v'], command: 'openOriginal', description: 'Open the original page' },
	{ keys: ['r'], command: 'refresh', description: 'Refresh the headlines' },
	{ keys: ['/'], command: 'search', description: 'Search' },
	{
		keys: ['Escape'],
		command: 'closeArticle',
		description: 'Leave the selection, else back to the headlines'
	},
	{
		keys: ['Shift+ArrowUp'],
		command: 'markAboveRead',
		description: 'Mark the articles above the open one read'
	},
	{
		keys: ['Shift+ArrowDown'],
		command: 'markBelowRead',
		description: 'Mark the articles below the open one read'
	},
	{
		keys: ['x'],
		command: 'toggleSelect',
		description: 'Select or unselect the focused (or open) article for a bulk action'
	},
	{
		// Taken by the toast that offers it (Toasts.svelte), which also takes Ctrl+Z and ⌘Z.
		keys: ['z'],
		command: 'undo',
		description: 'Undo the change the toast offers (also Ctrl+Z, ⌘Z)'
	},
	{ keys: ['?'], command: 'help', description: 'Show these shortcuts' }
];

const BY_KEY: ReadonlyMap<string, Command> = new Map(
	SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s.command] as const))
);

/** The command a key press means, or undefined (modifiers other than Shift never are). */
export function commandFor(event: KeyboardEvent): Command | undefined {
	if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return undefined;
	if (isTyping(event.target)) return undefined;
	const key = event.key;
	if (key.length === 1 && /[A-Z]/.test(key) && event.shiftKey) return BY_KEY.get(`Shift+${key}`);
	// Named keys (arrows) with Shift are their own shortcuts, as tt-rss's Shift+↑/↓.
	if (key.length > 1 && event.shiftKey) return BY_KEY.get(`Shift+${key}`) ?? BY_KEY.get(key);
	return BY_KEY.get(key);
}
