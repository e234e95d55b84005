/**
 * A tap on a new-article alert (src/lib/alerts): the app opens where the notice points (the
 * article, or the list when it names several). An open window of the app is brought forward and
 * navigated there; with none, a new one is opened. The path comes from our own notice's data and
 * is resolved inside the worker's scope (src/lib/alerts/target.ts).
 */
import { alertIsFor, alertTarget } from '../lib/alerts/target';
import { keptAccount } from '../lib/db/session';

const sw = self as unknown as ServiceWorkerGlobalScope;

export async function openAlert(data: unknown): Promise<void> {
	const scope = sw.registration.scope;
	const url = alertTarget(data, scope);
	if (!url) return;
	// A notice of another account (left from before a sign-out or a switch): its article ids mean
	// other articles here, so the tap opens nothing.
	if (!alertIsFor(data, await keptAccount().catch(() => undefined))) return;
	const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
	const open = windows.find((w) => w.url.startsWith(scope));
	if (open) {
		try {
			const moved = (await open.navigate(url)) ?? open;
			// Focus needs the tap's user activation; without it (an uncontrolled page) it may refuse.
			await moved.focus().catch(() => undefined);
			return;
		} catch {
			// Not ours to navigate (not controlled yet): a window of our own instead.
		}
	}
	await sw.clients.openWindow(url);
}

/** Wire once from index.ts: `startAlerts()` at top level. */
export function startAlerts(): void {
	sw.addEventListener('notificationclick', (event) => {
		event.notification.close();
		event.waitUntil(openAlert(event.notification.data));
	});
}
