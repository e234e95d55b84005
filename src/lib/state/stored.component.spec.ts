import { describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { StoredValues } from './stored.svelte';

interface Prefs {
	theme: string;
	size: number;
}
const DEFAULTS: Prefs = { theme: 'system', size: 100 };
function parse(raw: string | null): Prefs {
	try {
		const v = raw ? (JSON.parse(raw) as Partial<Prefs>) : {};
		return {
			theme: typeof v.theme === 'string' ? v.theme : DEFAULTS.theme,
			size: typeof v.size === 'number' ? v.size : DEFAULTS.size
		};
	} catch {
		return DEFAULTS;
	}
}

/** What the browser fires in this tab when another tab of the same origin writes local storage. */
function otherTabWrites(key: string | null, newValue: string | null): void {
	if (key === null) localStorage.clear();
	else if (newValue === null) localStorage.removeItem(key);
	else localStorage.setItem(key, newValue);
	window.dispatchEvent(new StorageEvent('storage', { key, newValue, storageArea: localStorage }));
}

describe('StoredValues across tabs', () => {
	it("takes another tab's change of its entry, narrowed like a read, and ignores other entries", () => {
		localStorage.clear();
		const prefs = new StoredValues('test-prefs', parse, DEFAULTS);
		prefs.update({ size: 130 });
		otherTabWrites('test-prefs', JSON.stringify({ theme: 'dark', size: 130 }));
		flushSync();
		expect(prefs.values).toEqual({ theme: 'dark', size: 130 });
		otherTabWrites('something-else', JSON.stringify({ theme: 'sepia' }));
		expect(prefs.values.theme).toBe('dark');
		otherTabWrites('test-prefs', JSON.stringify({ theme: 7 }));
		expect(prefs.values).toEqual(DEFAULTS);
	});

	it('falls back to the defaults when another tab clears local storage (its sign-out)', () => {
		localStorage.clear();
		const prefs = new StoredValues('test-prefs', parse, DEFAULTS);
		prefs.update({ theme: 'black' });
		otherTabWrites(null, null);
		expect(prefs.values).toEqual(DEFAULTS);
	});
});
