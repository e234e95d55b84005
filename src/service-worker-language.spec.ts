import { afterEach, describe, expect, it } from 'vitest';
import { m } from './lib/i18n/m';
import { useWorkerLanguage } from './lib/i18n/worker';
import { keepWorkerLanguage } from './lib/pwa/worker-language';
import { speakStoredLanguage } from './service-worker/language';

afterEach(() => useWorkerLanguage('en'));

describe('the service worker’s language', () => {
	it('is the one the page keeps, for alerts and refusals alike', async () => {
		await speakStoredLanguage();
		expect(m.error_offline()).toMatch(/^You are offline/);
		await keepWorkerLanguage('de');
		await speakStoredLanguage();
		expect(m.alert_title({ count: 3, label: 'Heise' })).toBe('3 neue in Heise');
		expect(m.error_offline()).toMatch(/^Du bist offline/);
		await keepWorkerLanguage('ru');
		await speakStoredLanguage();
		expect(m.alert_title({ count: 5, label: 'Хабр' })).toBe('5 новых статей: Хабр');
		expect(m.alert_more({ count: 2 })).toBe('и ещё 2');
	});

	it('is English for a value it does not know', () => {
		useWorkerLanguage('xx');
		expect(m.alert_untitled()).toBe('(untitled)');
	});
});
