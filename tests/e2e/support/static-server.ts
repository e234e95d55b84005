/**
 * A static server for tests that need their own build (another version, another base path). It
 * serves like production (deploy/static-site.js: policy, cache rules, SPA fallback); `root` can be
 * switched while it runs, which is how a test deploys a new version.
 */
import { createServer } from 'node:http';
import { staticSite } from '../../../deploy/static-site.js';

export interface StaticServer {
	/** The app's URL, ending in `/`. */
	url: string;
	root: string;
	close(): Promise<void>;
}

export async function startStaticServer(options: {
	root: string;
	base: string;
	port: number;
}): Promise<StaticServer> {
	const state = { root: options.root };
	const handle = staticSite({ root: () => state.root, base: options.base });
	const server = createServer((req, res) => {
		handle(req, res, () => {
			res.writeHead(404).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
	return {
		url: `http://localhost:${options.port}${options.base}/`,
		get root() {
			return state.root;
		},
		set root(value: string) {
			state.root = value;
		},
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			})
	};
}
