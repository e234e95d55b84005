import { describe, expect, it, vi } from 'vitest';
import { MAX_COLOR_CHARS, safeColor } from './color';

describe('safeColor', () => {
	it.each([
		'#d32f2f',
		'#FFF',
		'#ffd54f80',
		'#abcd',
		'red',
		'RebeccaPurple',
		'transparent',
		'rgb(211, 47, 47)',
		'rgba(0,0,0,0.5)',
		'rgb(10% 20% 30% / 50%)',
		'hsl(120deg 50% 50%)',
		'hsla(120, 50%, 50%, .3)',
		'  #000000  '
	])('accepts %s', (value) => {
		expect(safeColor(value)).toBe(value.trim());
	});

	it.each([
		'red; position:fixed; inset:0; z-index:9999',
		'red;background:url(https://evil.test/x.png)',
		'#fff;',
		'#ff',
		'#gggggg',
		'url(https://evil.test/pixel)',
		'var(--x)',
		'rgb(var(--x), 0, 0)',
		'rgb(calc(1px), 0, 0)',
		'rgb(1,2,3) , red',
		'rgb(1,2,3);top:0',
		'expression(alert(1))',
		'red !important',
		'light-dark(red, blue)',
		'red\nposition: fixed',
		'/* */red',
		'',
		'   '
	])('refuses %j', (value) => {
		expect(safeColor(value)).toBeUndefined();
	});

	it('refuses a value longer than MAX_COLOR_CHARS before any pattern runs', () => {
		const long = `rgb(1,${' '.repeat(MAX_COLOR_CHARS)}2, 3)`;
		expect(safeColor(long)).toBeUndefined();
		expect(safeColor('r'.repeat(MAX_COLOR_CHARS + 1))).toBeUndefined();
		expect(safeColor(`#${'f'.repeat(100_000)}`)).toBeUndefined();
		// Spaces around it are not the value: trimmed first.
		expect(safeColor(`${' '.repeat(1000)}red${' '.repeat(1000)}`)).toBe('red');
	});

	it('runs no pattern over a value built to make one backtrack, past the cap', () => {
		// Runs of spaces between numbers that never close: 1.2 KB took 1.2 s (cubic) before the cap
		// and the one-way separators. Under the cap a pattern reads at most MAX_COLOR_CHARS
		// characters; past it, none runs (counted, not timed: a loaded machine times anything).
		const spaces = (n: number): string => ' '.repeat(n);
		const hostile = [
			(n: number) => `rgb(1${spaces(n)}1${spaces(n)}1${spaces(n)}x`,
			(n: number) => `rgba(1,${spaces(n)},${spaces(n)}1${spaces(n)}/`,
			(n: number) => `hsl(${'1 '.repeat(n)}`
		];
		const exec = vi.spyOn(RegExp.prototype, 'exec');
		try {
			for (const make of hostile) {
				for (const n of [15, 400, 100_000]) {
					exec.mockClear();
					expect(safeColor(make(n))).toBeUndefined();
					if (make(n).trim().length > MAX_COLOR_CHARS) {
						expect(exec, `${make(2)} × ${n}`).not.toHaveBeenCalled();
					}
				}
			}
			// The spy sees the patterns when they do run.
			exec.mockClear();
			expect(safeColor('rgb(1, 2, 3)')).toBe('rgb(1, 2, 3)');
			expect(exec).toHaveBeenCalled();
		} finally {
			exec.mockRestore();
		}
	});

	it('refuses what is not a string', () => {
		expect(safeColor(undefined)).toBeUndefined();
		expect(safeColor(null)).toBeUndefined();
	});
});
