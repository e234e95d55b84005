import { describe, expect, it } from 'vitest';
import { answerRange, contentRange } from './range';

describe('answerRange', () => {
	const size = 1000;

	it('serves the whole file without a Range header', () => {
		expect(answerRange(null, size)).toEqual({ kind: 'whole' });
		expect(answerRange('', size)).toEqual({ kind: 'whole' });
	});

	it('answers the open-ended range media elements start with', () => {
		expect(answerRange('bytes=0-', size)).toEqual({ kind: 'partial', start: 0, end: 999 });
		expect(answerRange('bytes=400-', size)).toEqual({ kind: 'partial', start: 400, end: 999 });
	});

	it('answers a first-last range, both included, cut at the end of the file', () => {
		expect(answerRange('bytes=10-19', size)).toEqual({ kind: 'partial', start: 10, end: 19 });
		expect(answerRange('bytes=990-5000', size)).toEqual({ kind: 'partial', start: 990, end: 999 });
		expect(answerRange('bytes=999-999', size)).toEqual({ kind: 'partial', start: 999, end: 999 });
		expect(answerRange('BYTES = 5 - 6', size)).toEqual({ kind: 'partial', start: 5, end: 6 });
	});

	it('answers a suffix range with the last bytes, the whole file when longer', () => {
		expect(answerRange('bytes=-100', size)).toEqual({ kind: 'partial', start: 900, end: 999 });
		expect(answerRange('bytes=-5000', size)).toEqual({ kind: 'partial', start: 0, end: 999 });
	});

	it('refuses ranges that start past the end, or ask for nothing (416)', () => {
		expect(answerRange('bytes=1000-', size)).toEqual({ kind: 'unsatisfiable' });
		expect(answerRange('bytes=2000-3000', size)).toEqual({ kind: 'unsatisfiable' });
		expect(answerRange('bytes=-0', size)).toEqual({ kind: 'unsatisfiable' });
		expect(answerRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
		expect(answerRange('bytes=-10', 0)).toEqual({ kind: 'unsatisfiable' });
		expect(answerRange('bytes=99999999999999999999-', size)).toEqual({ kind: 'unsatisfiable' });
	});

	it('ignores what it does not serve: other units, several ranges, garbage, last < first', () => {
		for (const header of [
			'items=0-5',
			'bytes=0-5,10-15',
			'bytes=abc',
			'bytes=-',
			'bytes=5-4',
			'bytes 0-5',
			'bytes=-5-'
		]) {
			expect(answerRange(header, size), header).toEqual({ kind: 'whole' });
		}
	});
});

describe('contentRange', () => {
	it('names the bytes sent, or the size alone for a 416', () => {
		expect(contentRange({ kind: 'partial', start: 0, end: 99 }, 1000)).toBe('bytes 0-99/1000');
		expect(contentRange({ kind: 'unsatisfiable' }, 1000)).toBe('bytes */1000');
		expect(contentRange({ kind: 'whole' }, 1000)).toBeUndefined();
	});
});
