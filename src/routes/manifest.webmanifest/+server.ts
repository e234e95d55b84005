// The web app manifest, written at build time so start_url, scope, icons and the share target
// follow the base path the app is built for (BASE_PATH → paths.base).
import { base } from '$app/paths';
import { webManifest } from '$lib/pwa/manifest';

export const prerender = true;

export function GET(): Response {
	return new Response(JSON.stringify(webManifest(base), null, '\t'), {
		headers: { 'content-type': 'application/manifest+json' }
	});
}
