import { describe, expect, it } from 'vitest';
import { TtrssClient } from '$lib/api/client';
import { fakeFetch, levelOf, ok, recordedContent, recordedLevels } from '$support/fake-fetch';
import { resetReaderDbForTests } from '$lib/db/open';
import { clearJob, isFinished, loadJob, newJob, runJob } from './job';

const planned = ['a', 'b', 'c', 'd'].map((name) => ({
	title: name,
	xmlUrl: `http://feeds.test/${name}.xml`,
	wanted: undefined,
	categoryId: 0,
	missing: false,
	alreadySubscribed: name === 'b'
}));

describe.each(recordedLevels)('an import job (recorded subscribe replies, %s)', (level) => {
	it('continues after an interruption with the first feed not done, and keeps outcomes', async () => {
		let down = false;
		const sent: string[] = [];
		const fake = fakeFetch((request) => {
			if (request.body.op !== 'subscribeToFeed') return undefined;
			if (down) throw new TypeError('Failed to fetch');
			const url = String(request.body.feed_url);
			sent.push(url);
			if (url.endsWith('/c.xml')) down = true; // the connection drops after c
			return ok(
				request,
				url.endsWith('/d.xml')
					? recordedContent(level, 'subscribeToFeed-failed')
					: recordedContent(level, 'subscribeToFeed-added')
			);
		});
		const client = new TtrssClient({
			apiUrl: '/api/',
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: (await import('$lib/api')).deriveCapabilities(levelOf(level))
		});
		const job = newJob('reader@x', planned, () => 'Uncategorized');
		const seen: number[] = [];
		const first = runJob(client, job, (j) => seen.push(j.items.filter((i) => i.outcome).length));
		await expect(first).rejects.toMatchObject({ code: 'NETWORK' });
		// b was subscribed already: never sent. a and c done, d not.
		expect(sent).toEqual(['http://feeds.test/a.xml', 'http://feeds.test/c.xml']);
		expect(seen).toEqual([2, 3]);

		// "Reload": the kept job is all that is left.
		resetReaderDbForTests();
		const kept = await loadJob('reader@x');
		expect(kept?.items.map((i) => i.outcome?.status)).toEqual([
			'added',
			'skipped',
			'added',
			undefined
		]);
		expect(await loadJob('other@x')).toBeUndefined();

		down = false;
		const done = await runJob(client, kept!, () => undefined);
		expect(sent.at(-1)).toBe('http://feeds.test/d.xml');
		expect(sent).toHaveLength(3);
		expect(done.items[3]?.outcome).toEqual({
			code: 5,
			status: 'download-failed',
			message: expect.stringContaining('404 File not found') as string
		});
		expect(isFinished(done)).toBe(true);
		await clearJob();
		expect(await loadJob('reader@x')).toBeUndefined();
	});
});
