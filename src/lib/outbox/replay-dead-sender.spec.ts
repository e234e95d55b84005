import { expect, it, vi } from 'vitest';
import { pendingItems } from './outbox';
import { enqueueIntent } from './enqueue';
import type { Intent } from './intent';
import { replayOutbox } from './replay';
import { UNANSWERED_MS } from './replay-judge';
import { fakeTtrss } from '$support/fake-server';

/*
 * A sender that dies on the way: the worker's copy of the replay is loaded apart (vi.resetModules)
 * and never ends. In a file of its own: the modules loaded after the reset stay for the file.
 */

const star = (value: boolean): Intent => ({
	type: 'flag',
	field: 'starred',
	articleIds: [7],
	value
});

// Chaos seed 2002 (2026-11-27): the worker was stopped while its mark read was held on the
// way; the reader's mark unread, queued and sent from the page, was confirmed; then the mark
// read reached tt-rss. The dead sender noted nothing after: only a mark made before it sent.
it('its sender died on the way (worker stopped, tab closed): the replacement waits for it', async () => {
	let t = 1_000_000;
	const now = (): number => t;
	const server = fakeTtrss();
	await enqueueIntent(star(true), t);
	let onItsWay: () => void = () => undefined;
	const sending = new Promise<void>((resolve) => (onItsWay = resolve));
	const client = server.client();
	const dying = Object.create(client) as typeof client;
	dying.updateArticle = () => {
		onItsWay();
		// The worker is stopped here: its request never ends, its code never runs again.
		return new Promise(() => undefined);
	};
	// The worker: its own copy of the code (its replay never ends, its lock is let go).
	vi.resetModules();
	const worker = await import('./replay');
	void worker.replayOutbox({ client: dying, now });
	await sending;
	// The page goes on.
	t += 2_000;
	await enqueueIntent(star(false), t);
	expect(await replayOutbox({ client: server.client(), now })).toMatchObject({
		sent: 1,
		remaining: 1
	});
	expect(server.article(7).marked).toBe(false);
	expect((await pendingItems())[0]?.notBefore).toBe(1_000_000 + UNANSWERED_MS);
	// The dead worker's star reaches tt-rss; after its time the unstar is sent once more.
	server.article(7).marked = true;
	t = 1_000_000 + UNANSWERED_MS;
	expect(await replayOutbox({ client: server.client(), now })).toMatchObject({
		sent: 1,
		remaining: 0
	});
	expect(server.article(7).marked).toBe(false);
});
