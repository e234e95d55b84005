import { describe, expect, it } from 'vitest';
import { isQuiet, minutesOf, parseQuiet } from './quiet';

const at = (h: number, m = 0): Date => new Date(2026, 10, 23, h, m);

describe('quiet hours', () => {
	it('across midnight: 22:00 → 07:00 is quiet late at night and early in the morning only', () => {
		const quiet = { enabled: true, start: '22:00', end: '07:00' };
		expect(isQuiet(quiet, at(21, 59))).toBe(false);
		expect(isQuiet(quiet, at(22, 0))).toBe(true);
		expect(isQuiet(quiet, at(23, 59))).toBe(true);
		expect(isQuiet(quiet, at(0, 0))).toBe(true);
		expect(isQuiet(quiet, at(6, 59))).toBe(true);
		expect(isQuiet(quiet, at(7, 0))).toBe(false);
		expect(isQuiet(quiet, at(12, 0))).toBe(false);
	});

	it('within one day: 13:00 → 14:30', () => {
		const quiet = { enabled: true, start: '13:00', end: '14:30' };
		expect(isQuiet(quiet, at(12, 59))).toBe(false);
		expect(isQuiet(quiet, at(13, 0))).toBe(true);
		expect(isQuiet(quiet, at(14, 29))).toBe(true);
		expect(isQuiet(quiet, at(14, 30))).toBe(false);
		expect(isQuiet(quiet, at(23, 0))).toBe(false);
	});

	it('off, or start equal to end, is never quiet', () => {
		expect(isQuiet({ enabled: false, start: '00:00', end: '23:59' }, at(12))).toBe(false);
		expect(isQuiet({ enabled: true, start: '08:00', end: '08:00' }, at(8))).toBe(false);
	});

	it('stored values are narrowed: bad times fall back to the defaults', () => {
		expect(minutesOf('24:00')).toBeUndefined();
		expect(minutesOf('7:00')).toBeUndefined();
		expect(minutesOf('07:05')).toBe(425);
		expect(parseQuiet({ enabled: true, start: 'x', end: '06:30' })).toEqual({
			enabled: true,
			start: '22:00',
			end: '06:30'
		});
		expect(parseQuiet(null)).toEqual({ enabled: false, start: '22:00', end: '07:00' });
	});
});
