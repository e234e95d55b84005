/**
 * The reader's alert rules and what the alerts remember, per account, in the IndexedDB store
 * `sync` (v4; keys `alerts:<account>`, `alert-memory:<account>` and `alert-considered:<account>`,
 * the articles they have considered: db/considered.ts, as the rules' own), where the service
 * worker reads them too. Sign-out wipes that store with the rest of the account (db/device.ts), so
 * all are gone with it. The store holds `unknown`: every read is narrowed here.
 */
import { parseConsidered, startConsidered, type Considered } from '$lib/db/considered';
import { getStored, putStored, storedKeyFamily, updateStored } from '$lib/db/kv';
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

/** Per rule, what quiet hours held back (the articles considered are `ALERT_CONSIDERED`'s). */
export interface AlertMemory {
	pending: Record<string, number[]>;
	/**
	 * Before the considered set, per rule, the newest article id considered: read once, as the start of
	 * `ALERT_CONSIDERED` (`startFromLegacy`), then dropped.
	 */
	last?: Record<string, number>;
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
	const memory: AlertMemory = { pending: {} };
	if (!isObject(value)) return memory;
	if (isObject(value.last)) {
		const last: Record<string, number> = {};
		for (const [k, id] of Object.entries(value.last)) if (isId(id)) last[k] = id;
		if (Object.keys(last).length > 0) memory.last = last;
	}
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

/** The articles the alerts have considered (db/considered.ts), one set for all their rules. */
export const ALERT_CONSIDERED = storedKeyFamily<Considered | undefined>({
	store: 'sync',
	prefix: 'alert-considered:',
	owner: 'alerts/rules.ts',
	parse: parseConsidered,
	fallback: () => undefined
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

/**
 * Takes what quiet hours held back: read and emptied in one transaction, so of two runs at once
 * (the page's and the worker's, without Web Locks) one tells of them. A record from before the
 * considered set first gives its start (`startFromLegacy`).
 */
export async function takePendingAlerts(account: string): Promise<Record<string, number[]>> {
	await startFromLegacy(account);
	return (await updateStored(ALERT_MEMORY(account), () => ({ pending: {} }))).pending;
}

/** Holds these back (quiet hours) with what is held already. */
export async function holdAlerts(account: string, held: Record<string, number[]>): Promise<void> {
	if (Object.keys(held).length === 0) return;
	await updateStored(ALERT_MEMORY(account), (memory) => {
		const pending = { ...memory.pending };
		for (const [id, ids] of Object.entries(held))
			pending[id] = [...new Set([...(pending[id] ?? []), ...ids])];
		return { ...memory, pending };
	});
}

/**
 * The per-rule marks of an older record become the considered set's start: its lowest, so no
 * rule skips what it had not considered (a rule added later may tell of a little more).
 */
async function startFromLegacy(account: string): Promise<void> {
	const last = Object.values((await loadAlertMemory(account)).last ?? {});
	if (last.length > 0) await startConsidered(ALERT_CONSIDERED(account), Math.min(...last));
}

/**
 * Adds a rule (a rule already there is left as it is). It alerts only about articles that arrive
 * after: those already on this device the reader could see already are not news. (The alerts'
 * considered set starts at the newest article stored, or with the first sync's.)
 */
export async function addAlertRule(account: string, rule: AlertRule): Promise<AlertSettings> {
	const settings = await loadAlertSettings(account);
	if (settings.rules.some((r) => r.id === rule.id)) return settings;
	const next = { ...settings, rules: [...settings.rules, rule] };
	await startFromLegacy(account);
	await startConsidered(ALERT_CONSIDERED(account));
	await saveAlertSettings(account, next);
	return next;
}

export async function removeAlertRule(account: string, id: string): Promise<AlertSettings> {
	const settings = await loadAlertSettings(account);
	const next = { ...settings, rules: settings.rules.filter((r) => r.id !== id) };
	await updateStored(ALERT_MEMORY(account), (memory) => {
		const pending = { ...memory.pending };
		delete pending[id];
		return { ...memory, pending };
	});
	await saveAlertSettings(account, next);
	return next;
}
