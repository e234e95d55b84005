// The one source of truth for the app's Content-Security-Policy and the other response headers that
// go with it. Read by vite.config.ts (`vite preview`, which the end-to-end suite runs against), by the
// server-config generator (deploy/generate.js → deploy/apache, deploy/nginx, deploy/caddy) and by the
// tests' static server, so every place serves the same policy. Why each source is there: docs/deploy.md.

/** @type {Readonly<Record<string, readonly string[]>>} */
export const cspDirectives = Object.freeze({
	'default-src': ["'self'"],
	// No inline script at all: the build moves SvelteKit's inline bootstrap into a file
	// (deploy/externalize-bootstrap.js), so no hash or 'unsafe-inline' is needed.
	'script-src': ["'self'"],
	// Stylesheets only from the app itself; no <style> elements. Style *attributes* are allowed:
	// Svelte's compiled templates carry `style="…"` (parsed from template HTML, so CSSOM rules do not
	// apply) and SvelteKit's shell has `<div style="display: contents">`. Checked in Chromium: with
	// plain `style-src 'self'` every page reports style-src-attr violations, and only those. An
	// attribute cannot load anything or run script (url() is still held to img-src/font-src).
	'style-src': ["'self'"],
	'style-src-attr': ["'unsafe-inline'"],
	// Feed images and media come from any host, sometimes over plain http; blob:/data: for
	// images the app makes itself (cached images, icons).
	'img-src': ["'self'", 'https:', 'http:', 'data:', 'blob:'],
	'media-src': ["'self'", 'https:', 'http:', 'data:', 'blob:'],
	// Article embeds (video players…) come from arbitrary feed hosts; they are rendered in iframes
	// whose `sandbox` never includes allow-same-origin, so they cannot reach the app's origin.
	'frame-src': ["'self'", 'https:', 'http:'],
	'font-src': ["'self'", 'data:'],
	// The only network peer is tt-rss on the same origin.
	'connect-src': ["'self'"],
	'worker-src': ["'self'"],
	'manifest-src': ["'self'"],
	'object-src': ["'none'"],
	'base-uri': ["'none'"],
	'form-action': ["'self'"],
	'frame-ancestors': ["'none'"]
});

/**
 * The service worker's own policy (a worker is governed by the headers of its script). It renders
 * nothing; it only differs in `connect-src`: to keep article images for offline reading it fetches
 * them from the feeds' hosts (no-cors, opaque, never readable by the page). The page itself stays
 * limited to its own origin.
 */
export const workerCspDirectives = Object.freeze({
	...cspDirectives,
	'connect-src': ["'self'", 'https:', 'http:']
});

/**
 * The page's policy as a `<meta http-equiv>` carries it, for servers that send none of our headers
 * (the portable build, deploy/portable.js). A meta policy cannot carry `frame-ancestors` (browsers
 * ignore it there, with a warning); docs/security.md says what differs.
 */
export const metaCspDirectives = Object.freeze(
	Object.fromEntries(Object.entries(cspDirectives).filter(([name]) => name !== 'frame-ancestors'))
);

/** Serialises the directives as one header value. */
export function cspHeaderValue(directives = cspDirectives) {
	return Object.entries(directives)
		.map(([name, sources]) => [name, ...sources].join(' '))
		.join('; ');
}

/** Headers every HTML response of the app carries (the worker and manifest too; harmless). */
export function securityHeaders() {
	return {
		'Content-Security-Policy': cspHeaderValue(),
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'no-referrer'
	};
}

/** The headers of the service worker script: the same, with the worker's policy. */
export function workerSecurityHeaders() {
	return { ...securityHeaders(), 'Content-Security-Policy': cspHeaderValue(workerCspDirectives) };
}

/** The worker script's name below the base path. */
export const WORKER_SCRIPT = 'service-worker.js';

/**
 * Cache rules, in order of precedence, as path patterns relative to the base path.
 * Hashed build output never changes under its name; everything else must be revalidated so a new
 * version (worker script, manifest, index.html) is seen at once.
 */
export const cacheRules = Object.freeze({
	immutable: 'public, max-age=31536000, immutable',
	revalidate: 'no-cache'
});
