/**
 * Test helpers (used only by *.spec.ts): a fake `fetch` that records request bodies and answers
 * through a handler, plus the loader of the recorded replies in tests/fixtures/recorded/api<level>.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FetchLike } from '$lib/api/transport';

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
	/** Request headers other than the JSON Content-Type, when the recorder sent others. */
	requestHeaders?: Record<string, string>;
	httpStatus: number;
	contentType: string | null;
	/** The reply as JSON; else its text; an image as `{ base64 }`. */
	reply: unknown;
}

/**
 * The folders of tests/fixtures/recorded, named by the API level of the server recorded
 * (scripts/record-replies.ts): Debian's tt-rss of 2021 (15) and the current tt-rss (23).
 * A spec whose claim holds for any server runs over both (`describe.each(recordedLevels)`).
 */
export const recordedLevels = ['api15', 'api23'] as const;
export type RecordedLevel = (typeof recordedLevels)[number];

/** The API level a folder was recorded at (`api23` → 23). */
export function levelOf(level: RecordedLevel): number {
	return Number(level.slice(3));
}

const recordedDir = join(process.cwd(), 'tests/fixtures/recorded');

/** The one loader of recordings: a fresh copy each call, so a spec may change what it gets. */
export function recording(level: RecordedLevel, name: string): Recording {
	return JSON.parse(readFileSync(join(recordedDir, level, `${name}.json`), 'utf8')) as Recording;
}

/** The content of a recorded envelope reply. */
export function recordedContent(level: RecordedLevel, name: string): unknown {
	const reply = recording(level, name).reply as { content: unknown };
	return reply.content;
}

/**
 * A recorded reply as the body a fake server sends to `request`: its `seq` echoes the request's,
 * except `null` and `-1` (the server's "before reading your request"), which stay as recorded.
 */
export function recordedReply(level: RecordedLevel, name: string, request: SentRequest): Response {
	const reply = recording(level, name).reply as { seq?: unknown };
	if (reply.seq !== null && reply.seq !== -1) reply.seq = request.body.seq;
	return jsonReply(reply);
}

/** A deep copy, for building level variants from a recorded shape. */
export function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}
