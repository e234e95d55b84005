/**
 * How the reader can install the app, per browser. Chromium fires `beforeinstallprompt`, and the
 * app offers its own Install button. Safari on iOS/iPadOS never does (docs/engines.md): there the
 * only way is Share → Add to Home Screen, which also matters for offline use, because Safari may
 * clear the data of a site not added to the Home Screen after weeks without use. Elsewhere (Firefox)
 * the browser's own menu is the only way, if any, and the app says nothing.
 */

export type InstallAdvice = 'installed' | 'prompt' | 'ios' | 'none';

export interface InstallEnvironment {
	userAgent: string;
	/** navigator.maxTouchPoints: iPadOS's Safari says "Macintosh" but has a touch screen. */
	maxTouchPoints: number;
	/** Running as the installed app (display-mode standalone, or iOS's navigator.standalone). */
	standalone: boolean;
	/** A `beforeinstallprompt` event was kept and can be shown. */
	promptAvailable: boolean;
}

export function isAppleMobile(userAgent: string, maxTouchPoints: number): boolean {
	return (
		/\b(iPhone|iPad|iPod)\b/.test(userAgent) ||
		(/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1)
	);
}

export function installAdvice(env: InstallEnvironment): InstallAdvice {
	if (env.standalone) return 'installed';
	if (env.promptAvailable) return 'prompt';
	if (isAppleMobile(env.userAgent, env.maxTouchPoints)) return 'ios';
	return 'none';
}

/** The part of Chromium's BeforeInstallPromptEvent the app uses (absent from TypeScript's DOM). */
interface BeforeInstallPromptEvent extends Event {
	prompt(): Promise<void>;
	userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

class InstallPrompt {
	#event = $state<BeforeInstallPromptEvent | undefined>();
	#listening = false;

	get available(): boolean {
		return this.#event !== undefined;
	}

	/** Keeps Chromium's install event (it fires once, early) so Settings can offer it later. */
	listen(): void {
		if (this.#listening || typeof window === 'undefined') return;
		this.#listening = true;
		window.addEventListener('beforeinstallprompt', (event) => {
			event.preventDefault();
			this.#event = event as BeforeInstallPromptEvent;
		});
		window.addEventListener('appinstalled', () => (this.#event = undefined));
	}

	async prompt(): Promise<void> {
		const event = this.#event;
		if (!event) return;
		await event.prompt();
		// A prompt can be shown only once; Chromium fires a new event if it may be asked again.
		await event.userChoice;
		this.#event = undefined;
	}

	environment(): InstallEnvironment {
		const standalone =
			window.matchMedia('(display-mode: standalone)').matches ||
			(navigator as Navigator & { standalone?: boolean }).standalone === true;
		return {
			userAgent: navigator.userAgent,
			maxTouchPoints: navigator.maxTouchPoints,
			standalone,
			promptAvailable: this.available
		};
	}
}

export const installPrompt = new InstallPrompt();
