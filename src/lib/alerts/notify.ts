/**
 * New-article alerts after a sync, in the page or the service worker (whichever synced): the
 * sync engine's one hook (src/lib/sync/run-sync.ts). Reads the rules, the articles they have not
 * considered (db/considered.ts, claimed) and the lists the reader had open, lets plan.ts decide,
 * shows one notification per rule (a later one of the same rule replaces it: same tag) and holds
 * back what quiet hours keep. Quiet and cheap when there is no rule: one read. Never fails a
 * sync: errors end here.
 */
import type { TtrssClient } from '$lib/api';
import { accountOfClient } from '$lib/db/account';
import { claimArrivals } from '$lib/db/considered';
import { cacheOwnedBy } from '$lib/db/device';
import { storedArticle, storedTree } from '$lib/db/stores';
import { storedListIds } from '$lib/db/later-reads';
import { parentsOf } from '$lib/tree/walk';
import { planAlerts, type AlertArticle, type AlertNotice } from './alert-plan';
import { isQuiet } from './quiet';
import { ALERT_CONSIDERED, holdAlerts, loadAlertSettings, takePendingAlerts } from './rules';

/** One alert run at a time across tabs and the worker (two syncs may end together). */
const ALERT_LOCK = 'ttrss-alerts';

/** Whether this browser can show notifications at all (the page or the worker). */
export function notificationsSupported(): boolean {
	return typeof Notification !== 'undefined';
}

export function notificationsGranted(): boolean {
	return notificationsSupported() && Notification.permission === 'granted';
}

/** The worker's own registration, or the page's: showNotification lives there in both. */
async function registrationHere(): Promise<ServiceWorkerRegistration | undefined> {
	const own = (globalThis as { registration?: ServiceWorkerRegistration }).registration;
	if (own) return own;
	if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return undefined;
	return navigator.serviceWorker.getRegistration();
}

async function showNotice(
	registration: ServiceWorkerRegistration,
	notice: AlertNotice,
	account: string
): Promise<void> {
	const options: NotificationOptions & { renotify?: boolean } = {
		body: notice.body,
		tag: notice.tag,
		// The same tag replaces the last notice of the rule; renotify makes the new one heard.
		renotify: true,
		icon: new URL('icons/icon-192.png', registration.scope).href,
		data: { path: notice.path, account, articleIds: notice.articleIds }
	};
	await registration.showNotification(notice.title, options);
}

/**
 * Shows notices for an account, where notifications are allowed: the one way both the alerts
 * (below) and the rules' alert action (rules/after-sync.ts) show theirs. Each names its account, so the
 * worker opens nothing for a tap on another account's (service-worker/alerts.ts).
 */
export async function showNotices(
	notices: readonly AlertNotice[],
	account: string
): Promise<boolean> {
	if (notices.length === 0 || !notificationsGranted()) return false;
	const registration = await registrationHere();
	if (!registration) return false;
	for (const notice of notices) await showNotice(registration, notice, account);
	return true;
}

async function withLock(run: () => Promise<void>): Promise<void> {
	const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
	if (locks?.request) await locks.request(ALERT_LOCK, () => run());
	else await run();
}

/** Runs the alerts for an account after its sync; `now` for tests. */
export async function alertNewArticles(account: string, now = new Date()): Promise<AlertNotice[]> {
	let shown: AlertNotice[] = [];
	await withLock(async () => {
		const settings = await loadAlertSettings(account);
		if (settings.rules.length === 0) return;
		// Taken and claimed first, each in one transaction: an article is told of once, whatever
		// happens next, and of two runs at once (the page's and the worker's, where Web Locks are
		// missing) one tells of it. None claimed when the cache is no longer the account's.
		const pending = await takePendingAlerts(account);
		const arrived = await claimArrivals(ALERT_CONSIDERED(account), account);
		const waiting = Object.values(pending).flat();
		// An idle sync (nothing new, nothing waiting) reads no more than that.
		if (arrived.length === 0 && waiting.length === 0) return;
		const [held, lists, tree] = await Promise.all([
			Promise.all(waiting.map((id) => storedArticle(id))),
			storedListIds(),
			storedTree()
		]);
		const articles = new Map<number, AlertArticle>(
			[...arrived, ...held].filter((r) => r !== undefined).map((r) => [r.id, r])
		);
		const seen = new Set(lists.flat());
		const parents = parentsOf(tree?.tree);
		const plan = planAlerts({
			rules: settings.rules,
			arrived: arrived.map((r) => r.id),
			pending,
			articles,
			seen,
			categoriesOf: (feedId) => parents.get(feedId),
			quiet: isQuiet(settings.quiet, now)
		});
		await holdAlerts(account, plan.pending);
		if (plan.notices.length === 0 || !notificationsGranted()) return;
		// Signed out (or another account signed in) while the sync ran: nothing of it is shown.
		if (!(await cacheOwnedBy(account))) return;
		if (await showNotices(plan.notices, account)) shown = plan.notices;
	});
	return shown;
}

/** The sync's hook: after any sync that ran (not one another tab was running). */
export async function alertAfterSync(
	options: { client: TtrssClient; account?: string },
	outcome: { status: string }
): Promise<void> {
	if (outcome.status === 'busy') return;
	try {
		await alertNewArticles(options.account ?? accountOfClient(options.client) ?? '');
	} catch {
		// An alert is never worth a failed sync; the next sync runs them again.
	}
}
