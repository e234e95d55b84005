/**
 * localStorage is outside input (another version of the app, a hand edit, a broken write): an
 * entry holding a JSON object comes back as that object, anything else (nothing, garbage, a list,
 * a number) as undefined. The settings', swipes', lists' and resume records' parsers start here.
 */
import { isRecord } from '$lib/db/kv';

export function parseStoredObject(raw: string | null): Record<string, unknown> | undefined {
	if (!raw) return undefined;
	try {
		return isRecord(JSON.parse(raw));
	} catch {
		return undefined;
	}
}
