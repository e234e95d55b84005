/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
/// <reference types="@sveltejs/kit" />

// Placeholder: precaching, image cache and outbox replay arrive with the offline and installable issues.
// It already takes over at once so a fresh install controls its first page.
const sw = self as unknown as ServiceWorkerGlobalScope;

sw.addEventListener('install', () => {
	void sw.skipWaiting();
});

sw.addEventListener('activate', (event) => {
	event.waitUntil(sw.clients.claim());
});
