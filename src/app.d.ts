// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		// interface Error {}
		// interface Locals {}
		// interface PageData {}
		interface PageState {
			/** The image viewer's open image (shallow routing: the back button closes the viewer). */
			imageViewer?: number;
		}
		// interface Platform {}
	}

	/** The release version and commit of this build (vite.config.ts, deploy/build-info.js). */
	const __READER_BUILD__: { version: string; commit: string };
	/** Whether this is the archive's build (PORTABLE=1), served without a single-page fallback. */
	const __READER_PORTABLE__: boolean;
}

export {};
