// How the client build is split into files. Left to itself, Rolldown cuts the code of the first
// screen into ~25 files, one per set of routes that shares it, many under 1 KB. Each file costs a
// start a request, a response task and a module record on the main thread — about 3 ms apiece with
// the CPU slowed four times, before any of the app's own code runs. Two groups instead:
// - `framework`: Svelte, SvelteKit's client and idb, which change only with a dependency update;
// - `first-screen`: every other module the first screen imports statically (from the app's entry
//   and the route files of deploy/preload-first-screen.js). Code that only other screens import
//   (the article view with DOMPurify, settings, subscribe, share) stays in their own files.
import { FIRST_SCREEN } from './preload-first-screen.js';

const FRAMEWORK = /node_modules[\\/](svelte|@sveltejs[\\/]kit|idb|esm-env|clsx|devalue)[\\/]/;

/** The modules a start runs first: the client hooks, the root layout and the first screen's routes. */
const ROOTS = ['src/hooks.client.ts', 'src/routes/+layout.svelte', ...FIRST_SCREEN];

/** @param {string} id a module id (an absolute path) */
function isRoot(id) {
	return ROOTS.some((root) => id.endsWith(`/${root}`));
}

/**
 * @typedef {{ importers: readonly string[] }} ModuleInfoLike
 * @typedef {{ getModuleInfo(id: string): ModuleInfoLike | null }} ChunkingContextLike
 */

/**
 * True when `id` is reached from a root through static imports only.
 * @param {string} id @param {ChunkingContextLike} ctx @param {Map<string, boolean>} memo
 * @param {Set<string>} visiting
 * @returns {boolean}
 */
export function onFirstScreen(id, ctx, memo = new Map(), visiting = new Set()) {
	const known = memo.get(id);
	if (known !== undefined) return known;
	if (isRoot(id)) {
		memo.set(id, true);
		return true;
	}
	if (visiting.has(id)) return false; // an import cycle: decided by the other path
	visiting.add(id);
	const importers = ctx.getModuleInfo(id)?.importers ?? [];
	const result = importers.some((importer) => onFirstScreen(importer, ctx, memo, visiting));
	visiting.delete(id);
	memo.set(id, result);
	return result;
}

/**
 * Rolldown's `output.codeSplitting` for the client build.
 * @returns {{ groups: [
 *   { name: string, test: RegExp, priority: number },
 *   { name: (id: string, ctx: ChunkingContextLike) => string | null, priority: number }
 * ] }}
 */
export function firstScreenChunks() {
	/** @type {Map<string, boolean>} */
	const memo = new Map();
	return {
		groups: [
			{ name: 'framework', test: FRAMEWORK, priority: 2 },
			{
				/** @param {string} id @param {ChunkingContextLike} ctx */
				name: (id, ctx) => (onFirstScreen(id, ctx, memo) ? 'first-screen' : null),
				priority: 1
			}
		]
	};
}
