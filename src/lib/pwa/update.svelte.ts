/**
 * Service worker registration and the "new version available" state.
 *
 * A new version of the worker installs in the background and then waits: it never takes over by
 * itself (the page would run a mix of old code and new files). `pwaUpdate.available` turns true,
 * UpdatePrompt.svelte offers "Reload", and only then does the page tell the worker to skip waiting
 * and reload when it controls the page.
 */
import { browser, dev } from '$app/environment';
import { base } from '$app/paths';
import type { Workbox } from 'workbox-window';
import { afterFirstScreen } from '$lib/boot/early-reads';

/** How often a long-open page asks the server whether a new version exists. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

class PwaUpdate {
	#available = $state(false);
	#workbox: Workbox | undefined;
	#registering = false;
	/** The reader clicked Reload: reload as soon as the new version controls the page. */
	#reloadRequested = false;
	#reloaded = false;

	/** True when a new version is installed and waits for the reader's consent. */
	get available(): boolean {
		return this.#available;
	}

	/**
	 * Registers `<base>/service-worker.js` for the scope `<base>/`. Once per page; no-op in dev.
	 * On a start that opens a list this waits for its first rows (workbox-window's code included):
	 * the registration only checks for updates, which never hurry.
	 */
	async register(): Promise<void> {
		if (!browser || dev || this.#registering || !('serviceWorker' in navigator)) return;
		this.#registering = true;
		await afterFirstScreen();
		const { Workbox } = await import('workbox-window');
		const workbox = new Workbox(`${base}/service-worker.js`, { scope: `${base}/` });
		this.#workbox = workbox;

		workbox.addEventListener('waiting', (event) => {
			// workbox-window says "waiting" for any worker still installed 200 ms after its install,
			// the very first one too when the browser is slow to activate it (Firefox under load, in
			// the engines suite): with no active version there is nothing newer to offer.
			void navigator.serviceWorker.getRegistration(`${base}/`).then((registration) => {
				const active = registration?.active;
				if (active && active !== event.sw) this.#available = true;
			});
		});

		// The controller changes when a new version activates: after "Reload" here, or in another
		// tab. A page that ran under the old version must not keep running (its files are gone from
		// the cache); a page that had no worker yet (first install) just carries on.
		let previous = navigator.serviceWorker.controller;
		workbox.addEventListener('controlling', () => {
			const hadController = previous !== null;
			previous = navigator.serviceWorker.controller;
			if (hadController || this.#reloadRequested) this.#reload();
		});

		workbox.register().catch((error: unknown) => {
			console.warn('Service worker registration failed', error);
		});

		const check = () => {
			workbox.update().catch(() => {
				// Offline or the server is down: the next check will tell.
			});
		};
		setInterval(check, UPDATE_CHECK_MS);
		document.addEventListener('visibilitychange', () => {
			if (document.visibilityState === 'visible') check();
		});
	}

	/** The reader agreed: activate the waiting version, then reload into it. */
	applyUpdate(): void {
		if (!this.#workbox) return;
		this.#reloadRequested = true;
		this.#workbox.messageSkipWaiting();
	}

	#reload(): void {
		if (this.#reloaded) return;
		this.#reloaded = true;
		window.location.reload();
	}
}

export const pwaUpdate = new PwaUpdate();
