/**
 * The subscriptions page's calls to the server (OPML export and import): the page shows the
 * outcome, the state layer talks to the API client and reads the feed tree again afterwards
 * (screens never call the API client themselves, docs/architecture.md).
 */
import { exportSubscriptions, type OpmlExport } from '$lib/opml/export';
import { runJob, type ImportJob } from '$lib/opml/job';
import type { OpmlFeed } from '$lib/opml/opml';
import { planImport, type ImportPlan } from '$lib/opml/plan';
import { session } from './session.svelte';
import { treeState } from './tree.svelte';

/** The reader's subscriptions as the server has them now, as an OPML file's name and text. */
export async function exportOpml(): Promise<OpmlExport> {
	return exportSubscriptions(await session.api(), session.apiUrl);
}

/**
 * What importing a file's `feeds` would do, against the server's categories and feeds as they are
 * now, not as cached (the tree is read again on the way).
 */
export async function planOpmlImport(feeds: readonly OpmlFeed[]): Promise<ImportPlan> {
	const [onServer] = await Promise.all([
		session.api().then((client) => client.getFeeds({ catId: -4 })),
		treeState.load()
	]);
	const subscribed = onServer.filter((f) => !f.isCategory && f.feedUrl).map((f) => f.feedUrl ?? '');
	return planImport(feeds, treeState.categories(), subscribed);
}

/**
 * Subscribes to a job's feeds not done yet, one at a time (each outcome kept, so a reload
 * continues: opml/job.ts), then reads the tree again with the new feeds in it.
 */
export async function runOpmlImport(
	job: ImportJob,
	onProgress: (job: ImportJob) => void
): Promise<ImportJob> {
	const done = await runJob(await session.api(), job, onProgress);
	await treeState.load();
	return done;
}
