/**
 * One sync as the page and the worker run it: the engine, then a word on the sync channel so
 * every open tab refreshes its screen and its "Updated" time, whoever synced.
 */
import { alertAfterSync } from '$lib/alerts/notify';
import { accountOfClient } from '$lib/db/account';
import { whenAllMessages } from '$lib/i18n/m';
import { rulesAfterSync } from '$lib/rules/after-sync';
import { announceSync } from './channel';
import { syncNow, type SyncOptions, type SyncOutcome } from './engine';
import { syncSharedSettings } from './shared-settings';

export async function runSync(options: SyncOptions): Promise<SyncOutcome> {
	let told = false;
	// Once the text is in (the engine's onSynced, before its images) or, without it, at the end.
	const tell = async (outcome: SyncOutcome): Promise<void> => {
		if (told) return;
		told = true;
		const account = options.account ?? accountOfClient(options.client) ?? '';
		// The reader's settings kept by the plugin (issue 60), read at each sync: still under the
		// sync's lock (a sign-out's wipe waits for it), and before any tab is told to apply them.
		if (outcome.status !== 'busy') {
			await syncSharedSettings(options.client, account, { signal: options.signal });
		}
		// The rules' and alerts' words (`alert_`) are the later module's; the worker has all of them.
		await whenAllMessages()?.catch(() => undefined);
		// The reader's rules over the articles that arrived (src/lib/rules), before the alerts and
		// before any tab shows the new rows: what they changed is on the sync's list of changes.
		const ruled = await rulesAfterSync(account, outcome);
		if (ruled.touched.length > 0 && outcome.status === 'synced') {
			const articleIds = [...new Set([...outcome.changes.articleIds, ...ruled.touched])];
			outcome = { ...outcome, changes: { ...outcome.changes, articleIds } };
		}
		// New-article alerts (src/lib/alerts), before any tab shows the new rows and so has seen them.
		await alertAfterSync(options, outcome);
		if (outcome.status === 'synced')
			announceSync({ type: 'sync-done', at: outcome.at, changes: outcome.changes });
		else if (outcome.status === 'unchanged')
			announceSync({
				type: 'sync-done',
				at: outcome.at,
				changes: { articleIds: [], newArticles: false }
			});
		await options.onSynced?.(outcome);
	};
	const outcome = await syncNow({ ...options, onSynced: tell });
	await tell(outcome);
	return outcome;
}
