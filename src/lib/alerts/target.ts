/**
 * Where a tap on an alert leads, decided by the worker from the notice's data: a path of the
 * app's own list or article routes (plan.ts writes them), resolved inside the worker's scope.
 * Anything else is refused, so a notice can never send the reader off the app. The address opened
 * is the scope's folder with the path as a query (pwa/address.ts): a notice tapped after the
 * worker went (site data cleared) still opens the app on a server that has only its files.
 */
import { appAddress } from '$lib/pwa/address';

const APP_PATH = /^((feed|cat)\/-?\d+(\/\d+)?|rule\/[\w-]{1,64})$/;

/**
 * A rule's list of the articles it matched (`/rule/<id>`), as a notice's path; undefined for an id
 * that is not a plain path segment (the app's own are `r<time>`), whose alert then opens All articles.
 */
export function ruleListPath(ruleId: string): string | undefined {
	return /^[\w-]{1,64}$/.test(ruleId) ? `rule/${ruleId}` : undefined;
}

export function alertTarget(data: unknown, scope: string): string | undefined {
	if (typeof data !== 'object' || data === null) return undefined;
	const path = (data as { path?: unknown }).path;
	if (typeof path !== 'string' || !APP_PATH.test(path)) return undefined;
	const folder = new URL(scope);
	return new URL(appAddress(`/${path}`, folder.pathname.replace(/\/$/, '')), folder).href;
}

/** Whether a notice was shown for `account` (its data names it: notify.ts `showNotice`). */
export function alertIsFor(data: unknown, account: string | undefined): boolean {
	if (account === undefined || typeof data !== 'object' || data === null) return false;
	return (data as { account?: unknown }).account === account;
}
