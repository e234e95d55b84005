/**
 * The chaos harness's server: the built app (deploy/static-site.js, as `vite preview` serves it to
 * the e2e suite) and, on the same origin, `/tt-rss/` forwarded to the real test bed through a proxy
 * of our own that injects the schedule's faults. The page and the service worker both reach tt-rss
 * only through it. Every API request it sees is written to the history with the fault it got and,
 * when forwarded, tt-rss's answer (session ids and passwords are never kept).
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { staticSite } from '../../deploy/static-site.js';

/** What the proxy does with one API request. */
export type FaultKind =
	| 'none'
	| 'refuse' // the connection is closed before anything is forwarded
	| 'hang' // never answered: the client's own timeout ends it
	| 'delay' // forwarded after a pause
	| 'cut' // forwarded; the answer is cut off in the middle of its body
	| '502'
	| '504'
	| 'lost' // forwarded and applied by tt-rss; the answer never reaches the app
	// Not a fault of the wire: a broken server that says OK to a write it never applied. Only the
	// harness's self-check (CHAOS_SABOTAGE=1) uses it, to show the checker reports the loss.
	| 'fake-ok'
	// The self-check's too-wide app (CHAOS_SABOTAGE=widen): a mark read is forwarded with one
	// more article in it (`extraId`), as a mark above that took a row the reader never saw would.
	| 'widen'
	// The schedule's device is offline: refused like `refuse`, counted apart from the wire's faults.
	| 'offline';

export const FAULT_KINDS: readonly Exclude<FaultKind, 'none'>[] = [
	'refuse',
	'hang',
	'delay',
	'cut',
	'502',
	'504',
	'lost'
];

export interface HistoryEntry {
	/** ms since the schedule started. */
	t: number;
	op: string;
	/** The request's parameters without sid, password or seq. */
	params: Record<string, unknown>;
	fault: FaultKind;
	/** Whether tt-rss received it (and so may have applied it). */
	forwarded: boolean;
	/** tt-rss's HTTP status and reply (content shortened, session id removed), when forwarded. */
	status?: number;
	reply?: string;
	/**
	 * The account the request acts for: a login's user, or the user whose login answered with the
	 * session id the request carries (unknown when no login through this proxy gave it).
	 */
	account?: string;
}

export interface FaultPlan {
	/** Chooses the fault of the next API request (the schedule's seeded choice). */
	next(op: string): { kind: FaultKind; delayMs: number; extraId?: number };
}

export interface ChaosServer {
	url: string;
	history: HistoryEntry[];
	/** Faults apply only while this is set (sign-in and the final check run clean). */
	plan: FaultPlan | undefined;
	/** The device is offline: every `/tt-rss/` request is refused (recorded as `offline`). */
	offline: boolean;
	/** Starts a new history and clock for a schedule. */
	reset(): void;
	close(): Promise<void>;
}

/** Longest a hung request is held when the client does not give up first. */
const HANG_MAX_MS = 30_000;

const SECRET_KEYS = new Set(['sid', 'password', 'seq', 'session_id']);

function redact(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(redact);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.has(k) ? '…' : redact(v)])
		);
	}
	return value;
}

function summary(body: Buffer): string {
	const text = body.toString('utf8');
	try {
		return JSON.stringify(redact(JSON.parse(text))).slice(0, 300);
	} catch {
		return text.slice(0, 120);
	}
}

/** The session id a login's reply gives, if any. */
function sessionIdOf(body: Buffer): string | undefined {
	try {
		const reply = JSON.parse(body.toString('utf8')) as { content?: { session_id?: unknown } };
		const sid = reply.content?.session_id;
		return typeof sid === 'string' ? sid : undefined;
	} catch {
		return undefined;
	}
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

interface Upstream {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
}

export async function startChaosServer(options: {
	buildDir: string;
	/** The test bed's tt-rss URL (testbed.url), e.g. http://localhost:8280/tt-rss/. */
	ttrssUrl: string;
}): Promise<ChaosServer> {
	const target = new URL(options.ttrssUrl);
	const targetPath = target.pathname.endsWith('/') ? target.pathname : `${target.pathname}/`;
	const history: HistoryEntry[] = [];
	const sockets = new Set<Socket>();
	let started = Date.now();
	/** Session ids tt-rss gave through this proxy, and whose (never logged: the history has none). */
	const owners = new Map<string, string>();

	function forward(req: IncomingMessage, body: Buffer): Promise<Upstream> {
		const path = targetPath + (req.url ?? '/').slice('/tt-rss/'.length);
		// The body may have been rewritten (CHAOS_SABOTAGE=widen): its own length.
		const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
		delete headers['accept-encoding'];
		return new Promise((resolve, reject) => {
			const out = httpRequest(
				{ hostname: target.hostname, port: target.port, method: req.method, path, headers },
				(res) => {
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () =>
						resolve({
							status: res.statusCode ?? 502,
							headers: res.headers,
							body: Buffer.concat(chunks)
						})
					);
					res.on('error', reject);
				}
			);
			out.on('error', reject);
			out.end(body);
		});
	}

	const site = staticSite({
		root: () => options.buildDir,
		base: '',
		passThrough: (path) => path.startsWith('/tt-rss/')
	});

	const server: Server = createServer((req, res) => {
		site(req, res, () => {
			void (async () => {
				if (!(req.url ?? '').startsWith('/tt-rss/')) {
					res.writeHead(404).end();
					return;
				}
				let body = await readBody(req);
				const isApi = (req.url ?? '').startsWith('/tt-rss/api/') && req.method === 'POST';
				let op = '';
				let seq: unknown = 0;
				let params: Record<string, unknown> = {};
				let account: string | undefined;
				if (isApi) {
					try {
						const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
						op = typeof parsed.op === 'string' ? parsed.op : '?';
						seq = parsed.seq;
						account =
							op === 'login' && typeof parsed.user === 'string'
								? parsed.user
								: typeof parsed.sid === 'string'
									? owners.get(parsed.sid)
									: undefined;
						params = redact(parsed) as Record<string, unknown>;
						delete params.op;
					} catch {
						op = '?';
					}
				}
				const plan = isApi ? chaos.plan : undefined;
				const { kind, delayMs, extraId } = chaos.offline
					? { kind: 'offline' as const, delayMs: 0 }
					: plan
						? plan.next(op)
						: { kind: 'none' as const, delayMs: 0 };
				if (kind === 'widen' && extraId !== undefined) {
					const sent = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
					if (String(sent.field) === '2' && String(sent.mode) === '0') {
						sent.article_ids = `${String(sent.article_ids)},${extraId}`;
						body = Buffer.from(JSON.stringify(sent));
						params = { ...params, article_ids: sent.article_ids };
					}
				}
				const entry: HistoryEntry | undefined = isApi
					? {
							t: Date.now() - started,
							op,
							params,
							fault: kind,
							forwarded: false,
							...(account !== undefined ? { account } : {})
						}
					: undefined;
				if (entry) history.push(entry);
				const socket = req.socket;
				switch (kind) {
					case 'refuse':
					case 'offline':
						socket.destroy();
						return;
					case 'hang': {
						const timer = setTimeout(() => socket.destroy(), HANG_MAX_MS);
						socket.once('close', () => clearTimeout(timer));
						return;
					}
					case '502':
					case '504':
						res.writeHead(Number(kind), { 'content-type': 'text/html' });
						res.end(`<html><body>${kind} from the chaos proxy</body></html>`);
						return;
					case 'fake-ok':
						res.writeHead(200, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ seq, status: 0, content: { status: 'OK', updated: 1 } }));
						return;
					case 'delay':
						await new Promise((r) => setTimeout(r, delayMs));
						break;
				}
				let up: Upstream;
				try {
					up = await forward(req, body);
				} catch {
					socket.destroy();
					return;
				}
				if (entry) {
					entry.forwarded = true;
					entry.status = up.status;
					entry.reply = summary(up.body);
					if (op === 'login' && account !== undefined) {
						const sid = sessionIdOf(up.body);
						if (sid) owners.set(sid, account);
					}
				}
				if (kind === 'lost') {
					socket.destroy();
					return;
				}
				const headers = { ...up.headers };
				delete headers['transfer-encoding'];
				delete headers['content-length'];
				delete headers.connection;
				if (kind === 'cut') {
					res.writeHead(up.status, { ...headers, 'content-length': String(up.body.length) });
					res.write(up.body.subarray(0, Math.floor(up.body.length / 2)));
					setTimeout(() => socket.destroy(), 20);
					return;
				}
				res.writeHead(up.status, { ...headers, 'content-length': String(up.body.length) });
				res.end(up.body);
			})().catch(() => req.socket.destroy());
		});
	});
	server.on('connection', (s) => {
		sockets.add(s);
		s.once('close', () => sockets.delete(s));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (!address || typeof address !== 'object') throw new Error('no address');

	const chaos: ChaosServer = {
		url: `http://127.0.0.1:${address.port}`,
		history,
		plan: undefined,
		offline: false,
		reset() {
			history.length = 0;
			started = Date.now();
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const s of sockets) s.destroy();
				server.close(() => resolve());
			})
	};
	return chaos;
}
