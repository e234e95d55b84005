/**
 * Test helper (used only by *.spec.ts): an in-process stand-in for the Web Locks API
 * (`navigator.locks.request` in exclusive mode, and `query`), so page, tab and worker replays in one
 * test are serialised as browsers serialise them. Node has no navigator.locks. `abandon` lets go of
 * the locks a page held when it dies (a browser frees them with the page).
 */
type Work = (lock: { name: string }) => unknown;

export interface FakeLocks {
	request(name: string, ...rest: unknown[]): Promise<unknown>;
	query(): Promise<{ held: { name: string }[]; pending: { name: string }[] }>;
	/** The page holding `name` is gone: its lock is free (its work never finishes). */
	abandon(name: string): void;
}

export function webLocks(): FakeLocks {
	const tails = new Map<string, Promise<unknown>>();
	/** Locks granted and not yet let go. */
	const held = new Map<string, number>();
	/** Each request's page, by lock name, until it lets go: `abandon` lets go for it. */
	const pages = new Map<string, Set<() => void>>();
	return {
		request(name: string, ...rest: unknown[]): Promise<unknown> {
			const work = rest[rest.length - 1] as Work;
			const before = tails.get(name) ?? Promise.resolve();
			let dead = false;
			let letGo = (): void => undefined;
			const gone = new Promise<void>((resolve) => {
				letGo = () => {
					dead = true;
					resolve();
				};
			});
			const mine = pages.get(name) ?? new Set();
			pages.set(name, mine);
			mine.add(letGo);
			const forget = (): void => {
				mine.delete(letGo);
				if (mine.size === 0 && pages.get(name) === mine) pages.delete(name);
			};
			const never = new Promise<never>(() => {});
			const result = before.then(async () => {
				// A page that went while it waited is never granted its lock.
				if (dead) return never;
				held.set(name, (held.get(name) ?? 0) + 1);
				const release = (): void => {
					const n = (held.get(name) ?? 1) - 1;
					if (n > 0) held.set(name, n);
					else held.delete(name);
				};
				void gone.then(release);
				try {
					return await Promise.race([work({ name }), gone.then(() => never)]);
				} finally {
					if (!dead) release();
					forget();
				}
			});
			// The next request waits for this one to finish, or for its page to go.
			const tail = Promise.race([result, gone]).then(
				() => undefined,
				() => undefined
			);
			tails.set(name, tail);
			void tail.then(() => {
				if (tails.get(name) === tail) tails.delete(name);
			});
			return result;
		},
		query() {
			return Promise.resolve({ held: [...held.keys()].map((name) => ({ name })), pending: [] });
		},
		abandon(name: string): void {
			for (const letGo of pages.get(name) ?? []) letGo();
			pages.delete(name);
		}
	};
}

/** Installs the stand-in as `navigator.locks` (creating `navigator` in Node); returns it. */
export function installWebLocks(): FakeLocks {
	const nav = ((globalThis as { navigator?: object }).navigator ??= {}) as Record<string, unknown>;
	const locks = webLocks();
	Object.defineProperty(nav, 'locks', { value: locks, configurable: true });
	return locks;
}
