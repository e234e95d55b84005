/**
 * One browser's own copy of the production setup: the built app served like deploy/static-site.js
 * does, with `/tt-rss/` forwarded to the test bed. Each browser gets its own server (on a free port)
 * so a test can make "the server" unreachable for that browser alone: Playwright's setOffline has
 * no counterpart in Firefox's BiDi or in WebKitWebDriver, and a real reader's outage looks like
 * this anyway (navigator.onLine stays true, requests fail).
 *
 * The same process also runs the browsers' egress guard: both engines are told to use it as their
 * HTTP proxy for every host except this machine and the test bed's feed host, and it refuses
 * everything, so no test sends traffic off the machine (feeds link to real sites).
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { staticSite } from '../../../deploy/static-site.js';
import { testbed } from '../../support/testbed';

/**
 * - `online`: app and API reachable.
 * - `api-down`: the app's files are served, the API's connections are dropped (server down).
 * - `down`: nothing answers (the machine is offline): the app must start from its worker's cache.
 */
export type Reachability = 'online' | 'api-down' | 'down';

export interface AppServer {
	/** The app's URL, ending in `/`. */
	url: string;
	reachability: Reachability;
	/** The build served; switched to deploy a new version. */
	root: string;
	/** API ops that reached the test bed through this server, in order (`op` of each body). */
	readonly apiOps: string[];
	close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (typeof address !== 'object' || !address) throw new Error('no port');
	return address.port;
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
	return () =>
		new Promise<void>((resolve, reject) => {
			for (const socket of sockets) socket.destroy();
			server.close((error) => (error ? reject(error) : resolve()));
		});
}

function trackSockets(server: Server): Set<Socket> {
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	return sockets;
}

/** The op named in a JSON request body, for the record of what reached the server. */
function opOf(body: Buffer): string {
	try {
		const parsed = JSON.parse(body.toString('utf8')) as { op?: unknown };
		return typeof parsed.op === 'string' ? parsed.op : '?';
	} catch {
		return '?';
	}
}

function forward(req: IncomingMessage, body: Buffer, res: import('node:http').ServerResponse) {
	const target = new URL(testbed.url);
	const targetPath = target.pathname.endsWith('/') ? target.pathname : `${target.pathname}/`;
	const path = targetPath + (req.url ?? '/').slice('/tt-rss/'.length);
	const upstream = request(
		{
			host: target.hostname,
			port: target.port || 80,
			path,
			method: req.method,
			headers: { ...req.headers, host: target.host }
		},
		(reply) => {
			res.writeHead(reply.statusCode ?? 502, reply.headers);
			reply.pipe(res);
		}
	);
	upstream.on('error', () => res.destroy());
	upstream.end(body);
}

export async function startAppServer(root: string): Promise<AppServer> {
	const apiOps: string[] = [];
	const state = { reachability: 'online' as Reachability, root };
	const site = staticSite({
		root: () => state.root,
		base: '',
		passThrough: (path) => path.startsWith('/tt-rss/')
	});
	const server = createServer((req, res) => {
		const api = (req.url ?? '').startsWith('/tt-rss/');
		if (state.reachability === 'down' || (api && state.reachability === 'api-down')) {
			// A dropped connection, as from a server that is gone: the browser sees a network error.
			req.socket.destroy();
			return;
		}
		if (!api) {
			site(req, res, () => res.writeHead(404).end());
			return;
		}
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			if (req.method === 'POST') apiOps.push(opOf(body));
			forward(req, body, res);
		});
	});
	const sockets = trackSockets(server);
	// Keep-alive connections opened while online must not carry requests once "down".
	const port = await listen(server);
	return {
		url: `http://localhost:${port}/`,
		get reachability() {
			return state.reachability;
		},
		set reachability(value: Reachability) {
			state.reachability = value;
			if (value !== 'online') for (const socket of sockets) socket.destroy();
		},
		get root() {
			return state.root;
		},
		set root(value: string) {
			state.root = value;
		},
		apiOps,
		close: closer(server, sockets)
	};
}

export interface EgressGuard {
	/** `host:port` to give the browsers as their proxy. */
	proxy: string;
	/** Hosts the browsers reach directly (never through the guard). */
	direct: string[];
	/** URLs the browsers tried to reach elsewhere (refused). */
	readonly refused: string[];
	close(): Promise<void>;
}

/** A proxy that refuses every request and CONNECT; see the file header. */
export async function startEgressGuard(): Promise<EgressGuard> {
	const refused: string[] = [];
	const server = createServer((req, res) => {
		refused.push(req.url ?? '?');
		res.writeHead(403, { 'Content-Type': 'text/plain' }).end('blocked by the test harness');
	});
	server.on('connect', (req: IncomingMessage, socket: Socket) => {
		refused.push(`CONNECT ${req.url ?? '?'}`);
		socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
	});
	const sockets = trackSockets(server);
	const port = await listen(server);
	return {
		proxy: `127.0.0.1:${port}`,
		direct: ['localhost', '127.0.0.1', '::1', testbed.feedsHost],
		refused,
		close: closer(server, sockets)
	};
}
