/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
/// <reference types="@sveltejs/kit" />

// Wiring only: each concern lives in its own module.
// - cache.ts: precache of this build (cache named from the version) and the offline shell
// - messaging.ts: SKIP_WAITING / GET_VERSION from pages
// - worker-images.ts: article images kept for offline reading (CACHE_IMAGES), served while offline
// - worker-media.ts: enclosures of offline packs (CACHE_MEDIA), served with Range support
// - sync.ts: the offline copy brought up to date on Background Sync and Periodic Background Sync
// - alerts.ts: a tap on a new-article alert opens the article (or its list)
// - worker-replay.ts: outbox replay (Background Sync, or worker start where it is missing), begun once
//   activation is done, never inside it
// A new version never takes over by itself: it waits until a page sends SKIP_WAITING (src/lib/pwa).
import { useWorkerLanguage } from '$lib/i18n/worker';
import { startAlerts } from './alerts';
import { deleteOldCaches, handleFetch, precache, routeImmutableFromCache } from './cache';
import { handleImageFetch, handleImageMessage, startImageCache } from './worker-images';
import { handleMediaFetch, handleMediaMessage, startMediaCache } from './worker-media';
import { handleMessage } from './messaging';
import { replayAfterActivation, startReplay } from './worker-replay';
import { startSync } from './sync';

const sw = self as unknown as ServiceWorkerGlobalScope;

// What the worker says (a new-article alert, a replayed change's refusal) is in the language the
// page last spoke, read before each sync and replay (language.ts); English until then.
useWorkerLanguage('en');

sw.addEventListener('install', (event) => {
	event.waitUntil(Promise.all([precache(), routeImmutableFromCache(event)]));
});

sw.addEventListener('activate', (event) => {
	// Claiming lets the very first install control the page that installed it; on updates the pages
	// of the old version already switch to this worker (and reload, see src/lib/pwa/update.svelte.ts).
	const activation = Promise.all([deleteOldCaches(), sw.clients.claim()]);
	event.waitUntil(activation);
	replayAfterActivation(activation);
});

startReplay();

startSync();

startImageCache();

startAlerts();

startMediaCache();

sw.addEventListener('fetch', (event) => {
	if (!handleFetch(event) && !handleMediaFetch(event)) handleImageFetch(event);
});

sw.addEventListener('message', (event) => {
	handleMessage(event);
	handleImageMessage(event);
	handleMediaMessage(event);
});
