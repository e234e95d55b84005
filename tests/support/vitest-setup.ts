/**
 * The one set-up of every Vitest project (vite.config.ts `setupFiles`; the engines suite's
 * tests/engines/vitest.config.ts too).
 *
 * - Specs speak English, the source. A mock rather than a call: specs that reset the module
 *   registry (vi.resetModules) get a catalog all the same.
 * - Every spec starts on an empty IndexedDB (fake-indexeddb): a fresh factory before each test,
 *   and the reader's cached connection to the last one forgotten. A spec that needs more (its own
 *   module copies, a full disk) sets that up in its own `beforeEach`, which runs after this one.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, vi } from 'vitest';
import { resetReaderDbForTests } from '$lib/db/open';

vi.mock('$lib/i18n/m', async (importOriginal) => {
	const module = await importOriginal<typeof import('$lib/i18n/m')>();
	const [start, later] = await Promise.all([
		import('$lib/i18n/generated/en'),
		import('$lib/i18n/generated/en.later')
	]);
	module.useCatalog({ ...start.messages, ...later.messages });
	return module;
});

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
});
