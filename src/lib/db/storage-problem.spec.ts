import { afterEach, describe, expect, it } from 'vitest';
import { messages as english } from '$lib/i18n/generated/en';
import { messages as englishLater } from '$lib/i18n/generated/en.later';
import { messages as german } from '$lib/i18n/generated/de';
import { WORKER_MESSAGES } from '$lib/i18n/generated/worker';
import { useCatalog } from '$lib/i18n/m';
import { readerText } from '$lib/api';
import { isQuotaError, StorageFullError } from './storage-problem';

afterEach(() => useCatalog({ ...english, ...englishLater }));

describe('StorageFullError', () => {
	it('tells the reader in their language, from the first screen’s words (issue 29)', () => {
		// The start module alone (no later words yet): a write can fail during the first sync.
		useCatalog(german);
		const error = new StorageFullError(new DOMException('full', 'QuotaExceededError'));
		expect(readerText(error, 'fallback')).toMatch(/^Auf diesem Gerät ist kein Platz mehr/);
		expect(error.message).toBe('Storage full');
		expect(isQuotaError(error)).toBe(true);
	});

	it('is in the worker’s words too, in every language', () => {
		for (const words of Object.values(WORKER_MESSAGES)) {
			expect(words?.().error_storage_full()).toMatch(/\S/);
		}
		useCatalog(WORKER_MESSAGES.ar?.() ?? {});
		expect(new StorageFullError().userMessage).toMatch(/^لم تعد هناك مساحة/);
	});
});
