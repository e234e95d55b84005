/**
 * The installed app's icon badge (Badging API): the UI calls setAppBadge(unreadCount).
 * Works in pages and in the service worker; a no-op where the API is missing (Firefox, Safari
 * outside an installed web app) or refused (not installed, permission denied).
 */

/** The part of Navigator / WorkerNavigator this helper uses; both members may be missing. */
export interface BadgeNavigator {
	setAppBadge?: (contents?: number) => Promise<void>;
	clearAppBadge?: () => Promise<void>;
}

function currentNavigator(): BadgeNavigator | undefined {
	return typeof navigator === 'undefined' ? undefined : navigator;
}

/**
 * Shows `count` on the app icon, or clears the badge when count is 0 (or not a positive number).
 * Resolves true when the badge was updated, false when the platform cannot show one. Never throws:
 * a badge is decoration, not a reason for an error.
 */
export async function setAppBadge(
	count: number,
	nav: BadgeNavigator | undefined = currentNavigator()
): Promise<boolean> {
	if (!nav) return false;
	const value = Number.isFinite(count) ? Math.floor(count) : 0;
	try {
		if (value > 0) {
			if (typeof nav.setAppBadge !== 'function') return false;
			await nav.setAppBadge(value);
		} else {
			if (typeof nav.clearAppBadge === 'function') await nav.clearAppBadge();
			// Per the spec, setAppBadge(0) clears too: the fallback for a half implementation.
			else if (typeof nav.setAppBadge === 'function') await nav.setAppBadge(0);
			else return false;
		}
		return true;
	} catch {
		return false;
	}
}
