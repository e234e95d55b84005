/**
 * The subscriptions page's OPML import (its +page.svelte draws it): a file read and planned
 * (which feeds are new, which categories are missing and where their feeds go), the job that
 * subscribes them one by one, kept so a reload continues where it stopped.
 */
import { readerText } from '$lib/api';
import { offlineStatus } from '$lib/offline/offline-status.svelte';
import { clearJob, isFinished, loadJob, newJob, saveJob, type ImportJob } from '$lib/opml/job';
import { MAX_OPML_BYTES, readOpml } from '$lib/opml/opml';
import { chooseForMissing, groupByCategory, UNCATEGORIZED, type ImportPlan } from '$lib/opml/plan';
import { takeLaunchedFiles } from '$lib/pwa/launch-files';
import { planOpmlImport, runOpmlImport } from '$lib/state/opml-transfer';
import { session } from '$lib/state/session.svelte';
import { treeState } from '$lib/state/tree.svelte';
import { m } from '$lib/i18n';

const needsServer = (): string => m.settings_opml_needs_server();

export class OpmlImport {
	reading = $state(false);
	fileError = $state<string | undefined>();
	plan = $state<ImportPlan | undefined>();
	/** Missing category name → the existing category chosen for its feeds. */
	choices = $state<Record<string, number>>({});
	job = $state<ImportJob | undefined>();
	running = $state(false);
	stopped = $state<string | undefined>();

	readonly categories = $derived(treeState.categories());
	readonly done = $derived(this.job ? this.job.items.filter((i) => i.outcome).length : 0);
	readonly finished = $derived(this.job ? isFinished(this.job) : false);
	readonly newFeeds = $derived(
		this.plan ? this.plan.feeds.filter((f) => !f.alreadySubscribed).length : 0
	);
	/** The plan's feeds by the category they will go to. */
	readonly groups = $derived(
		this.plan
			? groupByCategory(chooseForMissing(this.plan, this.#chosen())).map(([id, feeds]) => ({
					id,
					title: this.categoryTitle(id),
					feeds
				}))
			: []
	);

	/** The choices as chooseForMissing takes them. */
	#chosen(): Map<string, number> {
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, never rendered
		return new Map(Object.entries(this.choices));
	}

	categoryTitle(id: number): string {
		return id === UNCATEGORIZED
			? m.subscribe_uncategorized()
			: (this.categories.find((c) => c.id === id)?.title ?? m.subscribe_uncategorized());
	}

	async chooseFile(event: Event & { currentTarget: HTMLInputElement }): Promise<void> {
		const file = event.currentTarget.files?.[0];
		event.currentTarget.value = '';
		await this.readFile(file);
	}

	/** A file chosen here, or opened with the installed app (an `.opml` file: launchQueue). */
	async readFile(file: File | undefined): Promise<void> {
		if (this.job) return;
		this.plan = undefined;
		this.fileError = undefined;
		if (!file) return;
		if (file.size > MAX_OPML_BYTES) {
			this.fileError = m.settings_opml_too_large({ size: MAX_OPML_BYTES / 1024 / 1024 });
			return;
		}
		if (!offlineStatus.online) {
			this.fileError = needsServer();
			return;
		}
		this.reading = true;
		try {
			const read = readOpml(await file.text());
			if (!read.ok) {
				this.fileError = read.error;
				return;
			}
			this.plan = await planOpmlImport(read.feeds);
			this.choices = Object.fromEntries(this.plan.missing.map((name) => [name, UNCATEGORIZED]));
		} catch (error) {
			this.fileError = readerText(error, m.settings_opml_read_failed());
		} finally {
			this.reading = false;
		}
	}

	async start(): Promise<void> {
		if (!this.plan || !session.account) return;
		if (!offlineStatus.online) {
			this.stopped = needsServer();
			return;
		}
		const created = newJob(session.account, chooseForMissing(this.plan, this.#chosen()), (id) =>
			this.categoryTitle(id)
		);
		await saveJob(created);
		this.job = created;
		this.plan = undefined;
		await this.run();
	}

	async run(): Promise<void> {
		if (!this.job || this.running) return;
		if (!offlineStatus.online) {
			this.stopped = needsServer();
			return;
		}
		this.running = true;
		this.stopped = undefined;
		try {
			this.job = await runOpmlImport(
				$state.snapshot(this.job),
				(progress) => (this.job = progress)
			);
		} catch (error) {
			this.stopped = m.settings_opml_stopped({
				why: readerText(error, m.settings_opml_unexpected())
			});
		} finally {
			this.running = false;
		}
	}

	async startOver(): Promise<void> {
		await clearJob();
		this.job = undefined;
		this.stopped = undefined;
	}

	/** The page is on screen: a file the app was opened with, and a job kept from before. */
	mount(): void {
		// The installed app opened with an OPML file (the manifest's file_handlers): read as if
		// chosen here. Where the browser has no launch queue the file picker is the way.
		takeLaunchedFiles(window, (file) => this.readFile(file));
		const account = session.account;
		if (!account) return;
		void loadJob(account).then((kept) => {
			if (!kept) return;
			this.job = kept;
			// A reload in the middle continues where it stopped.
			if (!isFinished(kept)) void this.run();
		});
	}
}
