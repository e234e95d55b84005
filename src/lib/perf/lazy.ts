/**
 * A module loaded at its first use rather than with the first screen (docs/benchmarks.md, the first
 * screen's JavaScript budget): one typed helper instead of a wrapper written by hand per function.
 *
 *     const actions = lazyModule(() => import('./actions'));
 *     export const setFlagSoon = actions.soon('setFlag'); // same arguments, loads first
 *
 * The import runs once; a failed one (a chunk the network lost) is forgotten, so the next use
 * tries again. Imports nothing: any layer may use it.
 */

/** The names of `M`'s exported functions. */
type FunctionKeys<M> = {
	[K in keyof M]: M[K] extends (...args: never[]) => unknown ? K : never;
}[keyof M];

/** `M[K]` called after the module has loaded: the same arguments, its result awaited. */
type Soon<F> = F extends (...args: infer A) => infer R
	? (...args: A) => Promise<Awaited<R>>
	: never;

export interface LazyModule<M> {
	/** The module, loaded on the first call. */
	readonly load: () => Promise<M>;
	/** The module's function `name`, loading the module first. */
	readonly soon: <K extends FunctionKeys<M>>(name: K) => Soon<M[K]>;
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
	let loading: Promise<M> | undefined;
	const load = (): Promise<M> =>
		(loading ??= importer().catch((error: unknown) => {
			loading = undefined;
			throw error;
		}));
	return {
		load,
		soon: (name) =>
			(async (...args: unknown[]) =>
				((await load())[name] as (...args: unknown[]) => unknown)(...args)) as never
	};
}
