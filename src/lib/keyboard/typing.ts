/**
 * Whether a key press is typing rather than a command: shared by the shortcuts (shortcuts.ts,
 * loaded after the first screen) and the toasts' Undo key (Toasts.svelte, on the first screen).
 */

/** Typing in a field (or a dialog's controls) is never a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
	if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
	if (target.isContentEditable) return true;
	const tag = target.tagName;
	if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
	if (tag !== 'INPUT') return false;
	const type = (target as HTMLInputElement).type;
	return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range'].includes(type);
}
