/**
 * An OPML import as a job that survives a reload: the list of feeds and each one's outcome are
 * kept in IndexedDB (store `sync`, one key, one account) after every subscription, so a reload
 * or a lost connection continues with the first feed not yet sent. Subscribing twice is harmless
 * anyway (the server answers "already subscribed"), so a feed sent just before an interruption
 * and sent again costs nothing.
 */
import type { SubscribeStatus, TtrssClient } from '$lib/api';
import { deleteStored, getStored, putStored, storedKey } from '$lib/db/kv';
import type { PlannedFeed } from './plan';

export interface ImportOutcome {
	/** The server's subscribe code (0–8); absent for feeds skipped without asking. */
	code: number | undefined;
	status: SubscribeStatus | 'skipped';
	/** The server's own words (code 5 and others). */
	message: string | undefined;
}

export interface ImportJobItem {
	title: string;
	xmlUrl: string;
	categoryId: number;
	/** The category's title as shown (the server's, or Uncategorized). */
	categoryTitle: string;
	outcome: ImportOutcome | undefined;
}

export interface ImportJob {
	account: string;
	startedAt: number;
	items: ImportJobItem[];
}

export function newJob(
	account: string,
	feeds: readonly PlannedFeed[],
	titleOf: (categoryId: number) => string,
	now = Date.now()
): ImportJob {
	return {
		account,
		startedAt: now,
		items: feeds.map((feed) => ({
			title: feed.title,
			xmlUrl: feed.xmlUrl,
			categoryId: feed.categoryId,
			categoryTitle: titleOf(feed.categoryId),
			outcome: feed.alreadySubscribed
				? { code: undefined, status: 'skipped', message: undefined }
				: undefined
		}))
	};
}

function isJob(value: unknown): value is ImportJob {
	if (typeof value !== 'object' || value === null) return false;
	const job = value as Partial<ImportJob>;
	return typeof job.account === 'string' && Array.isArray(job.items);
}

/** The import under way, whoever's it is (one at a time on a device). */
export const IMPORT_JOB = storedKey<ImportJob | undefined>({
	store: 'sync',
	name: 'opml-import',
	owner: 'opml/job.ts',
	parse: (raw) => (isJob(raw) ? raw : undefined),
	fallback: () => undefined
});

/** The kept job of this account, if any (another account's job is never shown). */
export async function loadJob(account: string): Promise<ImportJob | undefined> {
	const job = await getStored(IMPORT_JOB);
	return job?.account === account ? job : undefined;
}

export async function saveJob(job: ImportJob): Promise<void> {
	await putStored(IMPORT_JOB, job);
}

export async function clearJob(): Promise<void> {
	await deleteStored(IMPORT_JOB);
}

export function isFinished(job: ImportJob): boolean {
	return job.items.every((item) => item.outcome !== undefined);
}

/**
 * Subscribes the feeds not done yet, one at a time, saving after each. Stops (and throws) on the
 * first failure that is not the feed's own (offline, server down, session ended): the job stays
 * kept and runs on from there next time. `onProgress` gets the job after every feed.
 */
export async function runJob(
	client: TtrssClient,
	job: ImportJob,
	onProgress: (job: ImportJob) => void,
	signal?: AbortSignal
): Promise<ImportJob> {
	let current = job;
	for (let i = 0; i < current.items.length; i++) {
		const item = current.items[i];
		if (!item || item.outcome) continue;
		if (signal?.aborted) break;
		const result = await client.subscribeToFeed(
			{ feedUrl: item.xmlUrl, categoryId: item.categoryId },
			signal ? { signal } : {}
		);
		const outcome: ImportOutcome = {
			code: result.code,
			status: result.status,
			message: result.message
		};
		current = {
			...current,
			items: current.items.map((it, at) => (at === i ? { ...it, outcome } : it))
		};
		await saveJob(current);
		onProgress(current);
	}
	return current;
}
