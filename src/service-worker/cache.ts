/**
 * Precache of one build: every file of the version is stored in a cache named after that version
 * and served only from it, so a page never runs files of two versions. Network requests outside
 * the app (the tt-rss API under /tt-rss/, other paths, other origins) are never touched.
 */
import { base, build, files, prerendered, version } from '$service-worker';
import { withSnapshot } from './snapshot';

const sw = self as unknown as ServiceWorkerGlobalScope;

/** The fallback page that renders every route of the single-page app. */
export const SHELL = `${base}/index.html`;
/** tt-rss lives here on the same origin; its API calls and pages are never intercepted. */
const TTRSS_PREFIX = '/tt-rss/';
const IMMUTABLE = `${base}/_app/immutable/`;

/** Caches are per origin, so the name carries the scope: two deployments on one host stay apart. */
function cachePrefix(): string {
	return `precache ${sw.registration.scope} `;
}

export function cacheName(): string {
	return cachePrefix() + version;
}

const buildFiles = new Set(build);
/** Everything served from the precache, by path (the shell's bootstrap script is added at install). */
const precached = new Set<string>([...build, ...files, ...prerendered, SHELL]);

/**
 * Same-origin paths in index.html / the bootstrap script that point into the immutable build:
 * root-absolute (`/reader/_app/…`) in a build for a base path, `./_app/…` (relative to the app's
 * folder, where both files are read from) in the portable build.
 */
function immutableRefs(text: string): string[] {
	const folder = new URL(`${base}/`, sw.location.origin);
	const refs = new Set<string>();
	for (const match of text.matchAll(/["'](\.?\/[^"'\s]*_app\/immutable\/[^"'\s]+)["']/g)) {
		refs.add(new URL(match[1] as string, folder).pathname);
	}
	return [...refs];
}

/**
 * The portable build's shell names its files relative to the app's folder (`./_app/…`); the worker
 * also serves it at deeper app paths (`<base>/feed/-4/…`), so its stored copy names them from the
 * folder instead. A shell with root-absolute names is kept as it is.
 */
export function anchorShell(html: string, folder: string): string {
	return html.replace(/\b(href|src)="\.\//g, `$1="${folder}`);
}

async function anchoredShell(response: Response): Promise<Response> {
	const html = await response.clone().text();
	const anchored = anchorShell(html, `${base}/`);
	if (anchored === html) return response;
	return new Response(anchored, {
		status: response.status,
		statusText: response.statusText,
		headers: response.headers
	});
}

async function fetchForCache(path: string): Promise<Response> {
	// Hashed files may come from the HTTP cache; everything else is revalidated.
	const response = await fetch(path, {
		cache: path.startsWith(IMMUTABLE) ? 'default' : 'no-cache',
		credentials: 'same-origin'
	});
	if (!response.ok) throw new Error(`precache: ${path} answered ${response.status}`);
	// A redirected response (e.g. a server that canonicalises /index.html to /) cannot answer a
	// navigation; store a plain copy instead.
	if (response.redirected) {
		return new Response(await response.blob(), {
			status: response.status,
			statusText: response.statusText,
			headers: response.headers
		});
	}
	return response;
}

/**
 * Fetches the shell and checks that it belongs to this build: every hashed file it (or its
 * bootstrap script) names must be one of this version's files. During a deploy the server can
 * already hold the next version; installing then would mix versions, so the install fails and the
 * browser tries again at the next update check.
 */
async function fetchShell(): Promise<Map<string, Response>> {
	const shell = await anchoredShell(await fetchForCache(SHELL));
	const html = await shell.clone().text();
	const found = new Map<string, Response>([[SHELL, shell]]);
	const refs = immutableRefs(html);
	if (!refs.some((ref) => buildFiles.has(ref))) {
		throw new Error(`precache: ${SHELL} names none of version ${version}'s files`);
	}
	for (const ref of refs) {
		if (buildFiles.has(ref)) continue;
		if (!/\/bootstrap\.[\w-]+\.js$/.test(ref)) {
			throw new Error(`precache: ${SHELL} names ${ref}, which is not part of version ${version}`);
		}
		const script = await fetchForCache(ref);
		const foreign = immutableRefs(await script.clone().text()).filter((r) => !buildFiles.has(r));
		if (foreign.length > 0) {
			throw new Error(
				`precache: ${ref} names ${foreign.join(', ')}, not part of version ${version}`
			);
		}
		found.set(ref, script);
	}
	return found;
}

/** Install step: stores every file of this version, or fails the install. */
export async function precache(): Promise<void> {
	const cache = await caches.open(cacheName());
	const shellParts = await fetchShell();
	const others = [...build, ...files, ...prerendered].filter((path) => !shellParts.has(path));
	const responses = await Promise.all(
		others.map(async (path) => [path, await fetchForCache(path)] as const)
	);
	await Promise.all(
		[...shellParts, ...responses].map(([path, response]) => {
			precached.add(path);
			return cache.put(path, response);
		})
	);
}

/** The part of the Service Worker Static Routing API used here (Chromium 123+; not in lib.dom). */
interface StaticRoutes {
	addRoutes(routes: { condition: { urlPattern: string }; source: 'cache' }[]): Promise<void>;
}

/**
 * Install step, where the browser supports it: the hashed build files are answered straight from
 * Cache Storage by the browser, without starting this worker's script for each of them (a start
 * asks for ~30 at once). A file missing from every cache goes to the network. Hashed names never
 * change content, so any version's copy is the right one.
 */
export async function routeImmutableFromCache(event: ExtendableEvent): Promise<void> {
	const router = event as ExtendableEvent & Partial<StaticRoutes>;
	if (typeof router.addRoutes !== 'function') return;
	try {
		await router.addRoutes([
			{ condition: { urlPattern: `${sw.location.origin}${IMMUTABLE}*` }, source: 'cache' }
		]);
	} catch {
		// An older syntax or a refused pattern: the fetch handler below answers as before.
	}
}

/** Activate step: drops the precaches of this scope's other versions (never other caches). */
export async function deleteOldCaches(): Promise<void> {
	const current = cacheName();
	const prefix = cachePrefix();
	const names = await caches.keys();
	await Promise.all(
		names
			.filter((name) => name.startsWith(prefix) && name !== current)
			.map((name) => caches.delete(name))
	);
}

function inApp(pathname: string): boolean {
	if (base !== '' && pathname !== base && !pathname.startsWith(`${base}/`)) return false;
	// With the app at the origin's root, tt-rss's own paths are still outside it.
	if (base === '' && pathname.startsWith(TTRSS_PREFIX)) return false;
	return true;
}

let opened: Promise<Cache> | undefined;

async function fromPrecache(key: string, request: Request): Promise<Response> {
	// Opened once per worker start, not once per file: a start asks for ~30 files at once.
	opened ??= caches.open(cacheName());
	const cache = await opened;
	const cached = await cache.match(key);
	// Missing only if storage was cleared under us: the network is the best remaining answer.
	return cached ?? fetch(request);
}

/**
 * Answers the request from this version's precache when it is one of the app's files or a
 * navigation inside the app (→ the shell); returns false to leave it to the network.
 */
export function handleFetch(event: FetchEvent): boolean {
	const { request } = event;
	if (request.method !== 'GET') return false;
	const url = new URL(request.url);
	if (url.origin !== sw.location.origin || !inApp(url.pathname)) return false;

	// The bootstrap script is only known after install; it is cached under its own path.
	if (precached.has(url.pathname) || url.pathname.startsWith(`${IMMUTABLE}bootstrap.`)) {
		event.respondWith(fromPrecache(url.pathname, request));
		return true;
	}
	// A route of the single-page app (no file extension in the last segment): serve the shell.
	const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
	if (request.mode === 'navigate' && !last.includes('.')) {
		event.respondWith(
			fromPrecache(SHELL, request).then((shell) => withSnapshot(shell, url.pathname))
		);
		return true;
	}
	return false;
}
