/**
 * Test helper (used only by the keyboard's *.spec.ts): a key press as the window's keydown
 * handler receives it, with no modifier unless given, and `preventDefault` recorded.
 */
export function keyEvent(key: string, extra: Partial<KeyboardEvent> = {}): KeyboardEvent {
	return {
		key,
		shiftKey: false,
		ctrlKey: false,
		metaKey: false,
		altKey: false,
		isComposing: false,
		target: null,
		defaultPrevented: false,
		preventDefault(this: { defaultPrevented: boolean }) {
			this.defaultPrevented = true;
		},
		...extra
	} as unknown as KeyboardEvent;
}
