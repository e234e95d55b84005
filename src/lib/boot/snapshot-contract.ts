/**
 * The start snapshot, as the page writes it and the service worker serves it: the last list screen
 * the app rendered, as inert HTML (headlines as text, no article content, nothing that loads or
 * runs), put into the shell for a navigation to that same list so the first headlines paint before
 * any JavaScript has run. The app removes it once its own rows are on screen (boot/start-snapshot.ts).
 * It lives in Cache Storage (a worker reads it in a few milliseconds, without opening IndexedDB)
 * and is deleted with the account's other data at sign-out and at another account's sign-in. It
 * names its account (`SNAPSHOT_ACCOUNT_HEADER`), and the worker serves it to that account only.
 */

import { SNAPSHOT_CACHE } from '$lib/db/names';

export { SNAPSHOT_CACHE };
/** The request key under the app's base path, e.g. `/__start-snapshot`. */
export const SNAPSHOT_PATH = '/__start-snapshot';
/** The app path the snapshot shows (`/feed/-4`): it is served for a navigation to that path only. */
export const SNAPSHOT_FOR_HEADER = 'x-snapshot-for';
/**
 * The account whose screen it is (db/account.ts `accountOf`): served only while that account is
 * the one signed in, so a copy written by a tab of an account that has since signed out (between
 * the wipe and its reload) is never shown to anyone.
 */
export const SNAPSHOT_ACCOUNT_HEADER = 'x-snapshot-account';

/** Whether a snapshot stamped `stamped` may be shown while `signedIn` is signed in. */
export function snapshotServes(
	stamped: string | null | undefined,
	signedIn: string | undefined
): boolean {
	return signedIn !== undefined && stamped === signedIn;
}
/** The root element's attributes at capture (`data-theme`, the text-size style), JSON. */
export const SNAPSHOT_ROOT_HEADER = 'x-snapshot-root';
export const SNAPSHOT_ELEMENT_ID = 'start-snapshot';

/** Attributes of `<html>` a snapshot may carry: the reader's theme and text size, nothing else. */
export const ROOT_ATTRIBUTES = ['data-theme', 'style'] as const;

/** A style attribute that cannot load anything (no url(), no image-set, no @import, no escapes). */
export function inertStyle(style: string): boolean {
	return !/url\s*\(|image-set|image\s*\(|@import|expression|\\|\/\*/i.test(style);
}

function escapeAttribute(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The shell's module preloads (deploy/preload-first-screen.js). They are for a start without a
 * snapshot, whose first frame waits for the app's code anyway. With a snapshot the first frame is
 * the copy, and a preloaded module that arrives while the document is parsed is compiled on the
 * main thread before that frame (~40 ms of the warm start at 1×, measured 2026-12-07); without
 * them the shell's bootstrap script asks for the same modules once the copy is parsed.
 */
const MODULE_PRELOAD = /<link\b[^>]*\brel=["']?modulepreload\b[^>]*>\s*/gi;

/**
 * The shell with the snapshot inside: its wrapper first in `<body>` (covering the page until the
 * app removes it), the reader's theme on `<html>`, no module preloads (above). The shell is
 * returned unchanged when it has no `<body>` or `<html>` tag to anchor on.
 */
export function insertSnapshot(
	fullShell: string,
	snapshot: string,
	rootAttributes: Readonly<Record<string, string>>
): string {
	const shell = fullShell.replace(MODULE_PRELOAD, '');
	const body = /<body\b[^>]*>/i.exec(shell);
	const html = /<html\b[^>]*>/i.exec(shell);
	if (!body || !html) return fullShell;
	const wrapper = `<div id="${SNAPSHOT_ELEMENT_ID}" class="start-snapshot" aria-hidden="true" inert>${snapshot}</div>`;
	const bodyEnd = body.index + body[0].length;
	let out = shell.slice(0, bodyEnd) + wrapper + shell.slice(bodyEnd);
	const extra = ROOT_ATTRIBUTES.filter((name) => {
		const value = rootAttributes[name];
		return value !== undefined && !html[0].includes(`${name}=`) && inertStyle(value);
	})
		.map((name) => ` ${name}="${escapeAttribute(rootAttributes[name] as string)}"`)
		.join('');
	if (extra) {
		const at = html.index + html[0].length - 1;
		out = out.slice(0, at) + extra + out.slice(at);
	}
	return out;
}

/** The root attributes header, read defensively (a snapshot of another version, a broken value). */
export function parseRootAttributes(header: string | null): Record<string, string> {
	if (!header) return {};
	try {
		const parsed: unknown = JSON.parse(header);
		if (typeof parsed !== 'object' || parsed === null) return {};
		const out: Record<string, string> = {};
		for (const name of ROOT_ATTRIBUTES) {
			const value = (parsed as Record<string, unknown>)[name];
			if (typeof value === 'string') out[name] = value;
		}
		return out;
	} catch {
		return {};
	}
}

/** Deletes the snapshot (sign-out, another account's sign-in). */
export async function forgetSnapshot(): Promise<void> {
	if (typeof caches === 'undefined') return;
	try {
		await caches.delete(SNAPSHOT_CACHE);
	} catch {
		// Cache Storage unavailable (private mode): nothing was kept there either.
	}
}
