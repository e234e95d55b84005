import { describe, expect, it } from 'vitest';
import { safeColor } from './color';

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

	it('refuses what is not a string', () => {
		expect(safeColor(undefined)).toBeUndefined();
		expect(safeColor(null)).toBeUndefined();
	});
});
