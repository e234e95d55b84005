// A build served as production serves it, with /tt-rss/ passed to a tt-rss server: for the start
// guard (scripts/start-guard.js) and the alternated starts of several builds (bench/alternate.js).
import { createServer, request as httpRequest } from 'node:http';
import { staticSite } from '../deploy/static-site.js';

/**
 * The build served as production serves it (deploy/static-site.js: policy, cache rules, the
 * single-page fallback), with `/tt-rss/` passed to the test bed's server as deploy/'s configs and
 * `vite preview` do. In-process: no second Vite to start, nothing left running.
 * @param {string} root @param {string} ttrss
 * @returns {Promise<{ origin: string, close: () => void }>}
 */
export function appServer(root, ttrss) {
	const target = new URL(ttrss);
	const site = staticSite({
		root: () => root,
		base: '',
		passThrough: (path) => path.startsWith('/tt-rss/')
	});
	const server = createServer((req, res) =>
		site(req, res, () => {
			if (!req.url?.startsWith('/tt-rss/')) {
				res.writeHead(404).end();
				return;
			}
			const upstream = httpRequest(
				{
					host: target.hostname,
					port: target.port || 80,
					method: req.method,
					path: target.pathname + req.url.slice('/tt-rss/'.length),
					headers: { ...req.headers, host: target.host }
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				}
			);
			upstream.on('error', () => res.writeHead(502).end());
			req.pipe(upstream);
		})
	);
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			const a = /** @type {import('node:net').AddressInfo} */ (server.address());
			resolve({
				origin: `http://localhost:${a.port}`,
				close: () => {
					server.closeAllConnections();
					server.close();
				}
			});
		})
	);
}
