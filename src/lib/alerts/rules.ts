/**
 * The reader's alert rules and what the alerts remember, per account, in the IndexedDB store
 * `sync` (v4; keys `alerts:<account>` and `alert-memory:<account>`), where the service worker
 * reads them too. Sign-out wipes that store with the rest of the account (db/device.ts), so both
 * are gone with it. The store holds `unknown`: every read is narrowed here.
 */
import { getStored, putStored, storedKeyFamily } from '$lib/db/kv';
import { openReaderDb } from '$lib/db/open';
import { readTx } from '$lib/db/tx';
import { parseQuiet, type QuietHours } from './quiet';
import { parseStoredWords } from './words';

export type AlertRule =
	| { id: string; kind: 'feed'; feedId: number; title: string }
	| { id: string; kind: 'cat'; catId: number; title: string }
	| { id: string; kind: 'words'; words: string[]; content: boolean; title: string };

export interface AlertSettings {
	rules: AlertRule[];
	quiet: QuietHours;
}

/** Per rule: the highest article id already considered, and what quiet hours held back. */
export interface AlertMemory {
	last: Record<string, number>;
	pending: Record<string, number[]>;
}

export function wordsRuleId(words: readonly string[], content: boolean): string {
	return `words:${content ? 'c' : 't'}:${words.join('\n').toLowerCase()}`;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => Number.isInteger(v);

function parseRule(v: unknown): AlertRule | undefined {
	if (!isObject(v)) return undefined;
	const title = typeof v.title === 'string' ? v.title : '';
	if (v.kind === 'feed' && isId(v.feedId) && v.feedId > 0)
		return { id: `feed:${v.feedId}`, kind: 'feed', feedId: v.feedId, title };
	if (v.kind === 'cat' && isId(v.catId) && v.catId >= 0)
		return { id: `cat:${v.catId}`, kind: 'cat', catId: v.catId, title };
	if (v.kind === 'words') {
		const words = parseStoredWords(v.words);
		if (words.length === 0) return undefined;
		const content = v.content === true;
		return { id: wordsRuleId(words, content), kind: 'words', words, content, title };
	}
	return undefined;
}

export function parseAlertSettings(value: unknown): AlertSettings {
	const v = isObject(value) ? value : {};
	const rules: AlertRule[] = [];
	const ids = new Set<string>();
	for (const raw of Array.isArray(v.rules) ? v.rules : []) {
		const rule = parseRule(raw);
		if (rule && !ids.has(rule.id)) {
			ids.add(rule.id);
			rules.push(rule);
		}
	}
	return { rules, quiet: parseQuiet(v.quiet) };
}

export function parseAlertMemory(value: unknown): AlertMemory {
	const memory: AlertMemory = { last: {}, pending: {} };
	if (!isObject(value)) return memory;
	if (isObject(value.last))
		for (const [k, id] of Object.entries(value.last)) if (isId(id)) memory.last[k] = id;
	if (isObject(value.pending))
		for (const [k, ids] of Object.entries(value.pending))
			if (Array.isArray(ids)) memory.pending[k] = ids.filter(isId);
	return memory;
}

/** An account's alert rules and quiet hours (`sync` store). */
export const ALERT_SETTINGS = storedKeyFamily<AlertSettings>({
	store: 'sync',
	prefix: 'alerts:',
	owner: 'alerts/rules.ts',
	// Each rule is kept or dropped on its own (parseAlertSettings); only a non-object is bad.
	parse: (raw) => (isObject(raw) ? parseAlertSettings(raw) : undefined),
	fallback: () => parseAlertSettings(undefined)
});

/** What the alerts have told of, per rule (`sync` store). */
export const ALERT_MEMORY = storedKeyFamily<AlertMemory>({
	store: 'sync',
	prefix: 'alert-memory:',
	owner: 'alerts/rules.ts',
	parse: (raw) => (isObject(raw) ? parseAlertMemory(raw) : undefined),
	fallback: () => parseAlertMemory(undefined)
});

export async function loadAlertSettings(account: string): Promise<AlertSettings> {
	return getStored(ALERT_SETTINGS(account));
}

export async function saveAlertSettings(account: string, settings: AlertSettings): Promise<void> {
	await putStored(ALERT_SETTINGS(account), parseAlertSettings(settings));
}

export async function loadAlertMemory(account: string): Promise<AlertMemory> {
	return getStored(ALERT_MEMORY(account));
}

export async function saveAlertMemory(account: string, memory: AlertMemory): Promise<void> {
	await putStored(ALERT_MEMORY(account), memory);
}

/** The newest article id on this device (ids only grow on a tt-rss server): a new rule's start. */
export async function newestStoredId(): Promise<number> {
	const db = await openReaderDb();
	return readTx(db, ['articles'], async (tx) => {
		const cursor = await tx.store.openKeyCursor(null, 'prev');
		return cursor?.key ?? 0;
	});
}

/**
 * Adds a rule (a rule already there is left as it is). It alerts only about articles newer than
 * what this device already has: those the reader could see already are not news.
 */
export async function addAlertRule(account: string, rule: AlertRule): Promise<AlertSettings> {
	const settings = await loadAlertSettings(account);
	if (settings.rules.some((r) => r.id === rule.id)) return settings;
	const next = { ...settings, rules: [...settings.rules, rule] };
	const newest = await newestStoredId();
	const memory = await loadAlertMemory(account);
	// Nothing stored yet (the first sync is still running): the first run sets the start.
	if (newest > 0) memory.last[rule.id] = newest;
	await saveAlertMemory(account, memory);
	await saveAlertSettings(account, next);
	return next;
}

export async function removeAlertRule(account: string, id: string): Promise<AlertSettings> {
	const settings = await loadAlertSettings(account);
	const next = { ...settings, rules: settings.rules.filter((r) => r.id !== id) };
	const memory = await loadAlertMemory(account);
	delete memory.last[id];
	delete memory.pending[id];
	await saveAlertMemory(account, memory);
	await saveAlertSettings(account, next);
	return next;
}
