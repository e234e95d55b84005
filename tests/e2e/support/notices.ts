/**
 * The app's notifications in an e2e test (alerts.spec.ts, reader-rules.spec.ts): what the worker's
 * registration shows now, and a tap on one (a `notificationclick` dispatched in the worker, the
 * event the browser fires).
 */
import type { BrowserContext, Page } from '@playwright/test';

export interface Shown {
	title: string;
	body: string;
	tag: string;
	data: { path?: string; account?: string };
}

/** The notifications the app shows now, as the worker's registration lists them. */
export function notifications(page: Page): Promise<Shown[]> {
	return page.evaluate(async () => {
		const registration = await navigator.serviceWorker.ready;
		return (await registration.getNotifications()).map((n) => ({
			title: n.title,
			body: n.body,
			tag: n.tag,
			data: n.data as Shown['data']
		}));
	});
}

interface WorkerScope {
	registration: {
		getNotifications(filter?: {
			tag?: string;
		}): Promise<{ data: unknown; title: string; close(): void }[]>;
		showNotification(title: string, options: { data: unknown; tag?: string }): Promise<void>;
	};
	dispatchEvent(event: Event): boolean;
	NotificationEvent: new (type: string, init: { notification: unknown }) => Event;
}

/**
 * A tap on the notification shown. With `other`, a tap on a copy of it that names another account
 * and another path (one left from before a sign-out or an account switch); the notification
 * itself stays.
 */
export async function tap(
	context: BrowserContext,
	other?: { account: string; path: string }
): Promise<void> {
	const [worker] = context.serviceWorkers();
	if (!worker) throw new Error('no service worker');
	await worker.evaluate(async (copy) => {
		const sw = self as unknown as WorkerScope;
		let [notification] = await sw.registration.getNotifications();
		if (!notification) throw new Error('no notification to tap');
		if (copy) {
			const data = { ...(notification.data as object), ...copy };
			await sw.registration.showNotification(notification.title, { data, tag: 'other-account' });
			[notification] = await sw.registration.getNotifications({ tag: 'other-account' });
			if (!notification) throw new Error('the copy was not shown');
		}
		sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification }));
	}, other);
}
