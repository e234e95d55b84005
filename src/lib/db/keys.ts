/** Keys of the `settings` store that the database layer itself owns (db/kv.ts declarations). */
import { isString, storedKey } from './stored-key';

/** The account whose articles, lists, tree and images are cached on this device. */
export const CACHE_OWNER = storedKey<string | undefined>({
	store: 'settings',
	name: 'cache.owner',
	owner: 'db/device.ts',
	parse: isString,
	fallback: () => undefined
});

/** The device's non-extractable AES-GCM key that seals a kept password (db/secret.ts). */
export const SEALING = storedKey<CryptoKey | undefined>({
	store: 'settings',
	name: 'session.key',
	owner: 'db/secret.ts',
	parse: (raw) =>
		typeof raw === 'object' && raw !== null && 'algorithm' in raw ? (raw as CryptoKey) : undefined,
	fallback: () => undefined
});
