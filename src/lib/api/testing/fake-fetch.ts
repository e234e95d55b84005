/**
 * Test helpers (used only by *.spec.ts): a fake `fetch` that records request bodies and answers
 * through a handler, plus loaders for the recorded replies in tests/fixtures/recorded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FetchLike } from '../transport';

export interface SentRequest {
	url: string;
	init: RequestInit;
	body: Record<string, unknown>;
	headers: Record<string, string>;
}

export type Handler = (
	request: SentRequest
) => Response | Promise<Response> | undefined | Promise<Response | undefined>;

export interface FakeFetch {
	fetch: FetchLike;
	requests: SentRequest[];
	/** Ops in the order they were sent. */
	ops(): string[];
}

export function fakeFetch(handler: Handler): FakeFetch {
	const requests: SentRequest[] = [];
	const fetch: FetchLike = async (url, init) => {
		const raw = typeof init.body === 'string' ? init.body : '';
		const body = JSON.parse(raw) as Record<string, unknown>;
		const headers: Record<string, string> = {};
		new Headers(init.headers).forEach((value, key) => {
			headers[key] = value;
		});
		const request: SentRequest = { url, init, body, headers };
		requests.push(request);
		const response = await handler(request);
		if (!response) throw new Error(`fake server: no answer for ${String(body.op)}`);
		return response;
	};
	return { fetch, requests, ops: () => requests.map((r) => String(r.body.op)) };
}

/** A tt-rss-style JSON reply (HTTP 200, `text/json` like the Debian server). */
export function jsonReply(value: unknown, status = 200): Response {
	return new Response(JSON.stringify(value), {
		status,
		headers: { 'Content-Type': 'text/json' }
	});
}

/** The envelope the server wraps around content, echoing the request's seq. */
export function ok(request: SentRequest, content: unknown): Response {
	return jsonReply({ seq: request.body.seq, status: 0, content });
}

export function fail(request: SentRequest | null, error: string, seq?: number | null): Response {
	return jsonReply({
		seq: seq === undefined ? (request?.body.seq ?? 0) : seq,
		status: 1,
		content: { error }
	});
}

export interface Recording {
	op: string;
	description: string;
	request: Record<string, unknown> | string;
	httpStatus: number;
	contentType: string | null;
	reply: unknown;
}

const recordedDir = join(process.cwd(), 'tests/fixtures/recorded');

export function recorded(name: string): Recording {
	return JSON.parse(readFileSync(join(recordedDir, `${name}.json`), 'utf8')) as Recording;
}

/** The content of a recorded envelope reply. */
export function recordedContent(name: string): unknown {
	const reply = recorded(name).reply as { content: unknown };
	return reply.content;
}

/** A deep copy, for building level variants from a recorded shape. */
export function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}
