/**
 * The kept session: who is signed in where, the server's session id, and (only with "stay signed
 * in") the password, sealed with the device's key (secret.ts). Callers see the password in clear
 * in memory only.
 */
import type { Credentials } from '$lib/api';
import { accountOf, shownAccount } from './account';
import { openReaderDb, type ReaderDatabase } from './open';
import type { SessionRecord, StoredSession } from './schema';
import { canSeal, seal, unseal } from './secret';

/** What a stored session lets a client log in again with; null: ask the reader. */
export function storedCredentials(stored: StoredSession): Credentials | null {
	if (!stored.stayingSignedIn) return null;
	if (stored.singleUser) return {};
	return stored.password !== undefined ? { user: stored.user, password: stored.password } : null;
}

export async function loadSession(): Promise<StoredSession | undefined> {
	const db = await openReaderDb();
	const record = await db.get('session', 'current');
	if (!record) return undefined;
	const { sealedPassword, password, ...rest } = record;
	if (sealedPassword) {
		const opened = await unseal(db, sealedPassword);
		return opened !== undefined ? { ...rest, password: opened } : rest;
	}
	if (password === undefined) return rest;
	if (rest.stayingSignedIn && canSeal()) await sealLegacyPassword(db, password);
	return { ...rest, password };
}

/** A record from before sealing (or from an insecure context): seal it where it still stands. */
async function sealLegacyPassword(db: ReaderDatabase, password: string): Promise<void> {
	const sealedPassword = await seal(db, password);
	const tx = db.transaction('session', 'readwrite');
	const current = await tx.store.get('current');
	if (current?.password === password) {
		const sealedRecord: SessionRecord = { ...current, sealedPassword };
		delete sealedRecord.password;
		await tx.store.put(sealedRecord, 'current');
	}
	await tx.done;
}

/** The record to store: never a password the reader did not ask us to keep, never in clear where it can be sealed. */
export async function sessionRecord(
	db: ReaderDatabase,
	session: StoredSession
): Promise<SessionRecord> {
	const { password, ...rest } = session;
	if (!session.stayingSignedIn || password === undefined) return rest;
	return canSeal() ? { ...rest, sealedPassword: await seal(db, password) } : { ...rest, password };
}

/** The parts of a session that name one sign-in of one account. */
export type SignInParts = Pick<StoredSession, 'apiUrl' | 'user' | 'signedInAt' | 'signInId'>;

/** Whether two sessions are the same sign-in of the same account (not a later one, not another's). */
export function sameSignIn(a: SignInParts, b: SignInParts): boolean {
	return (
		accountOf(a) === accountOf(b) && a.signedInAt === b.signedInAt && a.signInId === b.signInId
	);
}

/** A fresh name for a sign-in (StoredSession `signInId`). */
export function newSignInId(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(16));
	return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The kept session, password included, only while it is still this sign-in: undefined after a
 * sign-out or another sign-in. Read anew at each login, so nothing logs in with what it read before.
 */
export async function sessionOfSignIn(signIn: SignInParts): Promise<StoredSession | undefined> {
	const current = await loadSession();
	return current && sameSignIn(current, signIn) ? current : undefined;
}

/** Whether this sign-in is still the kept one (one read, the password left sealed). */
export async function isCurrentSignIn(signIn: SignInParts): Promise<boolean> {
	const db = await openReaderDb();
	const current = await db.get('session', 'current');
	return current !== undefined && sameSignIn(current, signIn);
}

export async function saveSession(session: StoredSession): Promise<void> {
	const db = await openReaderDb();
	const record = await sessionRecord(db, session);
	await db.put('session', record, 'current');
}

/**
 * Writes a new session id ('' once the session ended) into the kept session, only if it is still
 * this account's and, when `replacing` is given, still holds that id: read and write are one
 * transaction, so a sign-out, another account's sign-in or a newer session found by another
 * context in between is never undone (a wiped record, password included, is never recreated).
 * Returns whether it wrote.
 */
export async function updateSessionId(
	account: string,
	sessionId: string,
	replacing?: string
): Promise<boolean> {
	const db = await openReaderDb();
	const tx = db.transaction('session', 'readwrite');
	const current = await tx.store.get('current');
	const ours =
		current !== undefined &&
		accountOf(current) === account &&
		(replacing === undefined || current.sessionId === replacing);
	if (ours) await tx.store.put({ ...current, sessionId }, 'current');
	await tx.done;
	return ours;
}

/**
 * Notes in the kept session whether the server's Reader plugin signs the account's images, only if
 * it is still this account's (read and write in one transaction, as updateSessionId).
 */
export async function updateSessionImageProxy(account: string, on: boolean): Promise<boolean> {
	const db = await openReaderDb();
	const tx = db.transaction('session', 'readwrite');
	const current = await tx.store.get('current');
	const ours = current !== undefined && accountOf(current) === account;
	if (ours && current.imageProxy !== on)
		await tx.store.put({ ...current, imageProxy: on }, 'current');
	await tx.done;
	return ours;
}

/** The account signed in on this device (the kept session's), or undefined when signed out. */
export async function keptAccount(): Promise<string | undefined> {
	const db = await openReaderDb();
	const record = await db.get('session', 'current');
	return record ? accountOf(record) : undefined;
}

/**
 * The account a change made now belongs to (outbox enqueue stamps it): this page's, else (the
 * worker, tests) the kept session's.
 */
export async function accountOfNewChanges(): Promise<string | undefined> {
	return shownAccount() ?? (await keptAccount());
}
