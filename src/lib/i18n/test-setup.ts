// Unit and contract tests speak English, the source (vite.config.ts setupFiles). A mock rather
// than a call: specs that reset the module registry (vi.resetModules) get a catalog all the same.
import { vi } from 'vitest';

vi.mock('$lib/i18n/m', async (importOriginal) => {
	const module = await importOriginal<typeof import('./m')>();
	const [start, later] = await Promise.all([
		import('./generated/en'),
		import('./generated/en.later')
	]);
	module.useCatalog({ ...start.messages, ...later.messages });
	return module;
});
