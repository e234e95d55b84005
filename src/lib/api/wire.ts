/**
 * Wire coercion: the only place that knows how tt-rss spells values.
 * Replies carry numbers as numbers or quoted strings (depending on the database driver) and
 * booleans in several spellings; requests send numbers as quoted strings (the spec's advice for
 * old hosts) and booleans as JSON booleans (the 2021 server reads the string "false" as true).
 */
import { clientError } from './error-make';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: unknown };

/** Thrown by the readers below; the client turns it into an ApiError BAD_REPLY for the op. */
export class ShapeError extends Error {
	override readonly name = 'ShapeError';
}

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A number from a number or a numeric string; `undefined` for anything else. */
export function optNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '') {
		const n = Number(value);
		return Number.isFinite(n) ? n : undefined;
	}
	return undefined;
}

export function num(value: unknown, field: string): number {
	const n = optNumber(value);
	if (n === undefined) throw new ShapeError(`${field}: expected a number`);
	return n;
}

/** The spec's boolean rule: empty string, 0, false, "f", "false" (and null/absent) are false. */
export function bool(value: unknown): boolean {
	if (value === undefined || value === null || value === false || value === '') return false;
	if (typeof value === 'number') return value !== 0;
	if (typeof value === 'string') {
		const s = value.trim().toLowerCase();
		return !(s === '' || s === '0' || s === 'f' || s === 'false');
	}
	return true;
}

export function optString(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

export function str(value: unknown, field: string): string {
	const s = optString(value);
	if (s === undefined) throw new ShapeError(`${field}: expected a string`);
	return s;
}

/** A string that may be missing; `null` and absent both become `undefined`. */
export function text(value: unknown): string {
	return optString(value) ?? '';
}

export function obj(value: unknown, field: string): JsonObject {
	if (!isObject(value)) throw new ShapeError(`${field}: expected an object`);
	return value;
}

export function arr(value: unknown, field: string): unknown[] {
	if (!Array.isArray(value)) throw new ShapeError(`${field}: expected a list`);
	return value;
}

/** Wraps a parser so shape problems become a typed BAD_REPLY error for the op. */
export function parseReply<T>(op: string, content: unknown, parse: (content: unknown) => T): T {
	try {
		return parse(content);
	} catch (error) {
		if (error instanceof ShapeError) {
			throw clientError(op, 'BAD_REPLY', { details: { problem: error.message }, cause: error });
		}
		throw error;
	}
}

/** Request values: numbers travel as quoted strings, booleans as JSON booleans. */
export type WireValue = string | boolean | string[] | undefined;

export function wireNumber(value: number | undefined): string | undefined {
	return value === undefined ? undefined : String(Math.trunc(value));
}

export function wireIds(ids: readonly number[]): string {
	return ids.map((id) => String(Math.trunc(id))).join(',');
}

/** Drops undefined entries, so parameters a server does not know are left out of the body. */
export function compact(params: Record<string, WireValue>): Record<string, string | boolean> {
	const out: Record<string, string | boolean> = {};
	for (const [key, value] of Object.entries(params)) {
		if (value === undefined) continue;
		out[key] = Array.isArray(value) ? value.join(',') : value;
	}
	return out;
}

/** A string that is not empty, else undefined. */
export function optText(value: unknown): string | undefined {
	const s = optString(value);
	return s === undefined || s === '' ? undefined : s;
}

/** An object of strings (other values left out); PHP's empty array as {}. */
export function stringRecord(value: unknown): Record<string, string> | undefined {
	// PHP encodes an empty associative array as [].
	if (Array.isArray(value) && value.length === 0) return {};
	if (!isObject(value)) return undefined;
	const out: Record<string, string> = {};
	for (const [key, v] of Object.entries(value)) {
		const s = optString(v);
		if (s !== undefined) out[key] = s;
	}
	return out;
}

/** A list that may be missing (nothing, null or ''): each item parsed. */
export function list<T>(value: unknown, field: string, parse: (item: unknown) => T): T[] {
	if (value === undefined || value === null || value === '') return [];
	return arr(value, field).map(parse);
}
