/** Keys of the `settings` store that the database layer itself owns. */

/** The account whose articles, lists, tree and images are cached on this device. */
export const CACHE_OWNER_KEY = 'cache.owner';

/** The device's non-extractable AES-GCM key that seals a kept password (db/secret.ts). */
export const SEALING_KEY = 'session.key';
