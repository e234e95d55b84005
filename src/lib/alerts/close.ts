/**
 * Closes the app's notifications (new-article alerts, src/lib/alerts/notify.ts): at sign-out and
 * at another account's sign-in, so nothing of an account stays on screen once it is gone. The
 * worker ignores a tap on one that was left (another account's: service-worker/alerts.ts). No
 * imports, so the session and the device's wipe can call it without starting anything.
 */
export async function closeNotices(): Promise<number> {
	try {
		const own = (globalThis as { registration?: ServiceWorkerRegistration }).registration;
		const registration =
			own ??
			(typeof navigator !== 'undefined' && 'serviceWorker' in navigator
				? await navigator.serviceWorker.getRegistration()
				: undefined);
		if (!registration?.getNotifications) return 0;
		const notices = await registration.getNotifications();
		for (const notice of notices) notice.close();
		return notices.length;
	} catch {
		// No worker, or notifications unavailable: nothing was shown.
		return 0;
	}
}
