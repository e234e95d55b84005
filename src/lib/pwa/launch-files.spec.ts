import { describe, expect, it, vi } from 'vitest';
import { takeLaunchedFiles, type LaunchParams } from './launch-files';

/** A launch queue as Chromium's: one consumer, launches handed to it. */
function queue() {
	let consumer: ((params: LaunchParams) => void) | undefined;
	return {
		launchQueue: { setConsumer: (c: (params: LaunchParams) => void) => (consumer = c) },
		launch: (params: LaunchParams) => consumer?.(params)
	};
}

describe('files opened with the app (launchQueue)', () => {
	it('hands the first file of a launch to the screen', async () => {
		const q = queue();
		const take = vi.fn();
		expect(takeLaunchedFiles(q, take)).toBe(true);
		const opml = new File(['<opml/>'], 'feeds.opml', { type: 'text/x-opml' });
		q.launch({
			files: [
				{ kind: 'directory', getFile: () => Promise.reject(new Error('a folder')) },
				{ kind: 'file', getFile: () => Promise.resolve(opml) }
			]
		});
		await vi.waitFor(() => expect(take).toHaveBeenCalledWith(opml));
	});

	it('a launch without files (the app opened from its icon) takes nothing', () => {
		const q = queue();
		const take = vi.fn();
		takeLaunchedFiles(q, take);
		q.launch({});
		q.launch({ files: [] });
		expect(take).not.toHaveBeenCalled();
	});

	it('where there is no launch queue, says so and waits for nothing', () => {
		expect(takeLaunchedFiles({}, vi.fn())).toBe(false);
		expect(takeLaunchedFiles(undefined, vi.fn())).toBe(false);
	});
});
