/**
 * Files the system opened with the installed app (the manifest's `file_handlers`: an `.opml` file
 * → the subscriptions screen). Chromium hands them to the page through `window.launchQueue`, to
 * the consumer the screen sets; a launch that came before it waits in the queue. Browsers without
 * it keep the import's file picker.
 */

/** What Chromium's launch queue hands over (the File Handling API). */
export interface LaunchParams {
	files?: readonly { kind?: string; getFile(): Promise<File> }[];
}

interface LaunchQueue {
	setConsumer(consumer: (params: LaunchParams) => void): void;
}

/**
 * Gives `take` the first file of each launch of the app with files. False where the browser has
 * no launch queue (nothing to wait for then).
 */
export function takeLaunchedFiles(
	win: object | undefined,
	take: (file: File) => void | Promise<void>
): boolean {
	const queue = (win as { launchQueue?: LaunchQueue } | undefined)?.launchQueue;
	if (!queue || typeof queue.setConsumer !== 'function') return false;
	queue.setConsumer((params) => {
		const handle = params.files?.find((f) => f.kind === undefined || f.kind === 'file');
		if (!handle) return;
		void handle
			.getFile()
			.then(take)
			.catch(() => undefined);
	});
	return true;
}
