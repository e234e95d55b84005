/**
 * Test helper (used only by *.spec.ts): the outbox's fake tt-rss (fake-server.ts)
 * with the ops a sync needs on top, in the shapes one of the test bed's servers sends
 * (tests/fixtures/recorded/<level>): getCounters (getCounters.json: `has_img` on api15; `ts`,
 * `title`, `publishedcounter` on api23), getArticle (getArticle.json), getConfig (getConfig.json),
 * and bodies in getHeadlines when `show_content` is asked (the 2021 server sends `content` ""
 * otherwise).
 */
import { deriveCapabilities } from '$lib/api';
import { TtrssClient } from '$lib/api/client';
import { levelOf, ok, recordedContent, type RecordedLevel, type SentRequest } from './fake-fetch';
import { fakeTtrss, type ServerArticle } from './fake-server';

export function body(id: number): string {
	return `<p>Body ${id}</p><img src="http://feeds.test/img/${id}.png">`;
}

/** An attachment as the server sends it (getHeadlines-podcast.json), at `url`. */
function recordedAttachment(level: RecordedLevel, url: string): Record<string, unknown> {
	const rows = recordedContent(level, 'getHeadlines-podcast') as {
		attachments: Record<string, unknown>[];
	}[];
	return { ...rows[0]?.attachments[0], 1: url, content_url: url };
}

/** The Reader plugin's proxy address of `url` (package/init.php), as the fake server signs it. */
export function proxied(url: string): string {
	return `http://tt.example/public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=${encodeURIComponent(url)}&sig=ab`;
}

/**
 * A body as the Reader plugin sends it: its image rewritten to the proxy, and one it would not
 * sign (an internal address), with the map of what it signed (`reader_images`).
 */
function signedBody(id: number): { content: string; reader_images: Record<string, string> } {
	const image = `http://feeds.test/img/${id}.png`;
	return {
		content:
			`<p>Body ${id}</p><img src="${proxied(image).replace(/&/g, '&amp;')}">` +
			`<img src="http://10.0.0.1/${id}.png">`,
		reader_images: { [image]: proxied(image) }
	};
}

export function syncServer(level: RecordedLevel) {
	const server = fakeTtrss({ apiLevel: levelOf(level) });
	const sent: SentRequest[] = [];
	/** The Reader plugin signs images (its hook runs for rows sent with their bodies). */
	let signing = false;
	/** Article id → its enclosure URL (sent with bodies, as `include_attachments` gives them). */
	const enclosures = new Map<number, string>();
	const countersOf = (articles: Map<number, ServerArticle>): unknown[] => {
		const all = [...articles.values()];
		const feeds = new Map<number, { unread: number; marked: number }>();
		for (const a of all) {
			const f = feeds.get(a.feedId) ?? { unread: 0, marked: 0 };
			if (a.unread) f.unread++;
			if (a.marked) f.marked++;
			feeds.set(a.feedId, f);
		}
		const unread = all.filter((a) => a.unread).length;
		const starred = all.filter((a) => a.marked);
		const published = all.filter((a) => a.published);
		return [
			{ id: 'global-unread', counter: unread },
			{ id: 'subscribed-feeds', counter: feeds.size },
			{ id: 0, counter: 0, auxcounter: 0 },
			{
				id: -1,
				counter: starred.filter((a) => a.unread).length,
				auxcounter: starred.length,
				markedcounter: starred.length
			},
			{
				id: -2,
				counter: published.filter((a) => a.unread).length,
				auxcounter: published.length
			},
			{ id: -4, counter: unread, auxcounter: 0 },
			...[...feeds].map(([id, f]) => ({
				id,
				// Moves with every feed update, articles or not: the sync must ignore it.
				updated: `${String(sent.length % 24).padStart(2, '0')}:16`,
				counter: f.unread,
				markedcounter: f.marked,
				...(level === 'api15'
					? { has_img: 1795367506 }
					: {
							title: `Feed ${id}`,
							error: '',
							publishedcounter: all.filter((a) => a.feedId === id && a.published).length,
							ts: 1795367506
						})
			})),
			{ id: 0, kind: 'cat', counter: unread }
		];
	};
	const fetch = async (url: string, init: RequestInit): Promise<Response> => {
		const request = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as Record<
			string,
			unknown
		>;
		const r: SentRequest = { url, init, body: request, headers: {} };
		sent.push(r);
		switch (request.op) {
			case 'getCounters':
				return ok(r, countersOf(server.articles));
			case 'getConfig':
				return ok(r, recordedContent(level, 'getConfig'));
			case 'getArticle': {
				const ids = String(request.article_id).split(',').map(Number);
				const recordedArticle = (
					recordedContent(level, 'getArticle') as Record<string, unknown>[]
				)[0];
				return ok(
					r,
					ids
						.filter((id) => server.articles.has(id))
						.map((id) => {
							const a = server.article(id);
							return {
								...recordedArticle,
								id,
								title: a.title,
								link: a.link,
								unread: a.unread,
								marked: a.marked,
								published: a.published,
								feed_id: a.feedId,
								note: a.note || null,
								updated: a.updated,
								content: body(id),
								...(signing ? signedBody(id) : {})
							};
						})
				);
			}
			case 'getHeadlines': {
				const reply = await server.fake.fetch(url, init);
				if (request.show_content !== true) return reply;
				const envelope = (await reply.json()) as { content: unknown };
				const rows = (
					Array.isArray(envelope.content) && Array.isArray(envelope.content[1])
						? envelope.content[1]
						: envelope.content
				) as Record<string, unknown>[];
				for (const row of rows) {
					row.content = body(Number(row.id));
					if (signing) Object.assign(row, signedBody(Number(row.id)));
					const enclosure = enclosures.get(Number(row.id));
					if (enclosure && request.include_attachments === true)
						row.attachments = [recordedAttachment(level, enclosure)];
				}
				return new Response(JSON.stringify(envelope), {
					headers: { 'Content-Type': 'text/json' }
				});
			}
			default:
				return server.fake.fetch(url, init);
		}
	};
	const client = new TtrssClient({
		apiUrl: 'http://tt.example/api/',
		fetch,
		sessionId: 'sid-0',
		capabilities: deriveCapabilities(levelOf(level)),
		credentials: () => null
	});
	return {
		...server,
		client,
		/** Ops sent since the last takeOps, kept for the next one. */
		sentOps(): string[] {
			return sent.map((r) => String(r.body.op));
		},
		/** Ops sent since the last call. */
		takeOps(): string[] {
			const ops = sent.map((r) => String(r.body.op));
			sent.length = 0;
			return ops;
		},
		/** From now on the Reader plugin signs the account's images (signedBody). */
		signImages(): void {
			signing = true;
		},
		/** Gives an article an audio enclosure at `url`. */
		enclose(id: number, url: string): void {
			enclosures.set(id, url);
		},
		/** Adds `n` unread articles after the newest one, in feed `feedId`. */
		arrive(n: number, feedId = 1): number[] {
			const first = Math.max(0, ...server.articles.keys()) + 1;
			const ids: number[] = [];
			for (let id = first; id < first + n; id++) {
				server.article(id).feedId = feedId;
				ids.push(id);
			}
			return ids;
		}
	};
}
