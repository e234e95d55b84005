/**
 * HTTP Range requests answered from a kept enclosure (src/service-worker/worker-media.ts). Audio and
 * video elements ask for `Range: bytes=0-` and seek with further ranges; a copy answered whole
 * would make seeking depend on what the player has buffered. Only what media elements send is
 * served: one byte range (RFC 9110 §14.1.2), first-last, open-ended or a suffix. Several ranges at
 * once would need a multipart reply; they, like any other unit, are answered with the whole file,
 * which the RFC allows (a server may ignore Range). Pure, so the unit tests drive every case.
 */

export type RangeAnswer =
	/** No Range header, or one to ignore: 200 with the whole file. */
	| { kind: 'whole' }
	/** 206 Partial Content: bytes `start`…`end`, both included. */
	| { kind: 'partial'; start: number; end: number }
	/** 416 Range Not Satisfiable: the range starts past the end (or asks for nothing). */
	| { kind: 'unsatisfiable' };

/**
 * The longest header read: `bytes=<first>-<last>` with two 16-digit numbers is 39 characters; a
 * longer one is ignored (the whole file) before the pattern runs.
 */
export const MAX_RANGE_HEADER_CHARS = 100;

/** Matched on the trimmed header; nothing optional sits between two runs of spaces. */
const BYTES = /^bytes\s*=\s*(\d*)\s*-\s*(\d*)$/i;

/** What to answer for a `Range` header over a file of `size` bytes. */
export function answerRange(header: string | null | undefined, size: number): RangeAnswer {
	if (!header || header.length > MAX_RANGE_HEADER_CHARS) return { kind: 'whole' };
	const match = BYTES.exec(header.trim());
	// Another unit, several ranges, or garbage: a server may ignore the header.
	if (!match) return { kind: 'whole' };
	const [, first = '', last = ''] = match;
	if (first === '' && last === '') return { kind: 'whole' };
	if (first === '') {
		// Suffix: the last N bytes (all of them when N is larger than the file).
		const n = Number(last);
		if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
		return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
	}
	const start = Number(first);
	if (!Number.isSafeInteger(start)) return { kind: 'unsatisfiable' };
	if (last !== '' && Number(last) < start) return { kind: 'whole' };
	if (start >= size) return { kind: 'unsatisfiable' };
	const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
	return { kind: 'partial', start, end };
}

/** The `Content-Range` header of an answer over a file of `size` bytes. */
export function contentRange(answer: RangeAnswer, size: number): string | undefined {
	if (answer.kind === 'partial') return `bytes ${answer.start}-${answer.end}/${size}`;
	if (answer.kind === 'unsatisfiable') return `bytes */${size}`;
	return undefined;
}
