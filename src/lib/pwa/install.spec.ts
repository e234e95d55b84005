import { describe, expect, it } from 'vitest';
import { installAdvice, type InstallEnvironment } from './install.svelte';

const IPHONE =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_UA =
	'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';

function env(overrides: Partial<InstallEnvironment>): InstallEnvironment {
	return {
		userAgent: FIREFOX,
		maxTouchPoints: 0,
		standalone: false,
		promptAvailable: false,
		...overrides
	};
}

describe('installAdvice', () => {
	it('offers the install button where Chromium gave its prompt', () => {
		expect(installAdvice(env({ promptAvailable: true }))).toBe('prompt');
	});

	it('gives Add to Home Screen steps on iPhone and on iPad (which says Macintosh)', () => {
		expect(installAdvice(env({ userAgent: IPHONE, maxTouchPoints: 5 }))).toBe('ios');
		expect(installAdvice(env({ userAgent: IPAD_DESKTOP_UA, maxTouchPoints: 5 }))).toBe('ios');
	});

	it('says nothing on a Mac, in Firefox, or once installed', () => {
		expect(installAdvice(env({ userAgent: IPAD_DESKTOP_UA, maxTouchPoints: 0 }))).toBe('none');
		expect(installAdvice(env({}))).toBe('none');
		expect(installAdvice(env({ userAgent: IPHONE, standalone: true }))).toBe('installed');
	});
});
