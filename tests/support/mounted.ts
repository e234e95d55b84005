/**
 * What the component specs (`*.component.spec.ts`, jsdom) share: a component mounted into a fresh
 * target and taken away after each test, and an open article made from a headline.
 */
import { flushSync, mount, unmount, type Component } from 'svelte';
import { afterEach } from 'vitest';
import type { Headline } from '$lib/api';
import { headline } from './factories';
import type { OpenArticle } from '$lib/state/article.svelte';

let shown: Record<string, unknown>[] = [];

/** A fresh, empty element in the document's body, the only thing there. */
export function freshTarget(): HTMLElement {
	const target = document.createElement('div');
	document.body.replaceChildren(target);
	return target;
}

/** Mounts `component` into `target` and draws it; it is unmounted after the test (or by `hide`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Svelte's own bound for props
export function show<Props extends Record<string, any>, Exports extends Record<string, any>>(
	component: Component<Props, Exports>,
	target: HTMLElement,
	props: Props
): Exports {
	const exports = mount(component, { target, props });
	flushSync();
	shown.push(exports);
	return exports;
}

/** Takes away every component shown, as each test ends, or in a test to show another. */
export async function hide(): Promise<void> {
	const now = shown;
	shown = [];
	for (const exports of now) await unmount(exports);
}

afterEach(hide);

/**
 * jsdom's <dialog> has no showModal: gives it the two methods the app's dialogs use (open it;
 * close it and say so, as a browser does).
 */
export function dialogsInJsdom(): void {
	HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
		this.open = true;
	};
	HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
		this.open = false;
		this.dispatchEvent(new Event('close'));
	};
}

/** The article view's article for a headline (`fake-server.ts` `headline`). */
export function openArticle(id: number, patch: Partial<Headline> = {}): OpenArticle {
	const { isUpdated, excerpt, commentsLink, alwaysDisplayAttachments, flavorKind, ...article } =
		headline(id, patch);
	void [isUpdated, excerpt, commentsLink, alwaysDisplayAttachments, flavorKind];
	return { ...article, comments: '' };
}
