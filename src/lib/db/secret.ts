/**
 * Seals the password kept by "stay signed in" with an AES-GCM key that WebCrypto generates as
 * non-extractable and that is kept in IndexedDB as a CryptoKey object. The stored bytes are then
 * not the password: a copy of the database files, a backup, or a script that can read IndexedDB
 * but not run code on this origin learns nothing from them.
 *
 * What it does not do: a script running on this origin (an XSS in tt-rss or in this app) can ask
 * WebCrypto to decrypt with the same key, exactly as the app does. docs/security.md says so.
 * Where WebCrypto is missing (a page served over plain HTTP to another host) the password is kept
 * as before, in clear text.
 */
import type { ReaderDatabase } from './open';
import { SEALING } from './keys';
import { getStored, readIn, writeIn } from './kv';
import type { SealedSecret } from './schema';

function subtle(): SubtleCrypto | undefined {
	return typeof crypto === 'undefined' ? undefined : crypto.subtle;
}

export function canSeal(): boolean {
	return subtle() !== undefined;
}

async function sealingKey(db: ReaderDatabase, create: boolean): Promise<CryptoKey | undefined> {
	const found = await getStored(SEALING, db);
	if (found || !create) return found;
	const made = await (subtle() as SubtleCrypto).generateKey(
		{ name: 'AES-GCM', length: 256 },
		false,
		['encrypt', 'decrypt']
	);
	// Another tab or the worker may have made one meanwhile: the first one stored wins.
	const tx = db.transaction('settings', 'readwrite');
	const raced = await readIn(tx.store, SEALING);
	if (!raced) await writeIn(tx.store, SEALING, made);
	await tx.done;
	return raced ?? made;
}

export async function seal(db: ReaderDatabase, secret: string): Promise<SealedSecret> {
	const key = (await sealingKey(db, true)) as CryptoKey;
	const iv = crypto.getRandomValues(new Uint8Array(12));
	const data = await (subtle() as SubtleCrypto).encrypt(
		{ name: 'AES-GCM', iv },
		key,
		new TextEncoder().encode(secret)
	);
	return { iv, data };
}

/** The secret, or undefined when the key is gone (wiped) or the bytes do not open with it. */
export async function unseal(
	db: ReaderDatabase,
	sealed: SealedSecret
): Promise<string | undefined> {
	const crypto = subtle();
	const key = crypto && (await sealingKey(db, false));
	if (!crypto || !key) return undefined;
	try {
		const plain = await crypto.decrypt({ name: 'AES-GCM', iv: sealed.iv }, key, sealed.data);
		return new TextDecoder().decode(plain);
	} catch {
		return undefined;
	}
}
