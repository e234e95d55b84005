// How the built app is served, as a Node request handler: the same rules as the server configs in
// deploy/ (files from the adapter-static output, `no-cache` for everything except the hashed
// `_app/immutable/` files, the single-page fallback to index.html, the policy of deploy/csp.js).
// `vite preview` uses it (vite.config.ts), so the end-to-end suite runs against the real build
// rather than SvelteKit's server-rendered preview, and the tests' own static server reuses it.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { cacheRules, securityHeaders, WORKER_SCRIPT, workerSecurityHeaders } from './csp.js';

const TYPES = /** @type {Record<string, string>} */ ({
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json',
	'.webmanifest': 'application/manifest+json',
	'.png': 'image/png',
	'.svg': 'image/svg+xml',
	'.ico': 'image/x-icon',
	'.txt': 'text/plain; charset=utf-8',
	'.woff2': 'font/woff2'
});

/** @param {string} path */
async function isFile(path) {
	try {
		return (await stat(path)).isFile();
	} catch {
		return false;
	}
}

/**
 * @param {{ root: () => string, base: string, passThrough?: (pathname: string) => boolean }} options
 *   `root` is read per request (tests switch it to deploy a new version); `passThrough` names paths
 *   left to the next handler (the /tt-rss/ proxy).
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void}
 */
export function staticSite({ root, base, passThrough = () => false }) {
	return (req, res, next) => {
		const method = req.method ?? 'GET';
		let pathname;
		try {
			pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
		} catch {
			next();
			return;
		}
		if (
			(method !== 'GET' && method !== 'HEAD') ||
			passThrough(pathname) ||
			!(pathname === base || pathname.startsWith(`${base}/`))
		) {
			next();
			return;
		}
		const dir = root();
		const relative = normalize(pathname.slice(base.length) || '/');
		if (relative.split(sep).includes('..')) {
			res.writeHead(400).end();
			return;
		}
		void (async () => {
			let file = join(dir, relative.endsWith(sep) ? `${relative}index.html` : relative);
			if (!(await isFile(file))) {
				if (extname(relative) !== '') {
					res.writeHead(404, { ...securityHeaders(), 'Cache-Control': cacheRules.revalidate });
					res.end();
					return;
				}
				file = join(dir, 'index.html');
			}
			const body = await readFile(file);
			const immutable = relative.startsWith(`${sep}_app${sep}immutable${sep}`);
			const worker = relative === `${sep}${WORKER_SCRIPT}`;
			res.writeHead(200, {
				...(worker ? workerSecurityHeaders() : securityHeaders()),
				'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
				'Content-Length': body.length,
				'Cache-Control': immutable ? cacheRules.immutable : cacheRules.revalidate
			});
			res.end(method === 'HEAD' ? undefined : body);
		})().catch(() => {
			if (!res.headersSent) res.writeHead(500);
			res.end();
		});
	};
}
