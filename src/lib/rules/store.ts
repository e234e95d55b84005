/**
 * An account's rules and the articles each matched, in the IndexedDB store `sync` (keys
 * `rules:<account>`, `rule-hits:<account>`; what they have considered is memory.ts's), where the
 * service worker's sync reads them too; sign-out wipes that store with the rest of the account.
 * The muted words, kept until now under `mute:<account>`, are the rules' `mute` kind: the first
 * read of an account's rules moves them over (the old key is then deleted), so they keep hiding
 * what they hid.
 */
import {
	deleteStored,
	getStored,
	isRecord,
	putStored,
	storedKeyFamily,
	updateStored
} from '$lib/db/kv';
import {
	parseRule,
	parseRuleHits,
	parseRuleSettings,
	withHits,
	type MuteRule,
	type RuleHits,
	type RuleSettings
} from './model';

export const RULES = storedKeyFamily<RuleSettings | undefined>({
	store: 'sync',
	prefix: 'rules:',
	owner: 'rules/store.ts',
	parse: parseRuleSettings,
	fallback: () => undefined
});

/** Per rule, the articles it matched (model.ts `RuleHits`). */
export const RULE_HITS = storedKeyFamily<RuleHits>({
	store: 'sync',
	prefix: 'rule-hits:',
	owner: 'rules/store.ts',
	parse: parseRuleHits,
	fallback: () => ({})
});

/** Where the muted words were kept before they were a rule (read once, to move them). */
export const LEGACY_MUTE = storedKeyFamily<Record<string, unknown> | undefined>({
	store: 'sync',
	prefix: 'mute:',
	owner: 'rules/store.ts (moved from mute/)',
	parse: isRecord,
	fallback: () => undefined
});

/** An account's rules (the muted words moved in on the first read). */
export async function loadRules(account: string): Promise<RuleSettings> {
	const stored = await getStored(RULES(account));
	if (stored) return stored;
	const legacy = await getStored(LEGACY_MUTE(account));
	if (!legacy) return { rules: [] };
	const mute = parseRule({ ...legacy, kind: 'mute' });
	const settings: RuleSettings = { rules: mute ? [mute] : [] };
	await putStored(RULES(account), settings);
	await deleteStored(LEGACY_MUTE(account));
	return settings;
}

export async function saveRules(account: string, settings: RuleSettings): Promise<void> {
	const next = parseRuleSettings(settings) ?? { rules: [] };
	// A first rule acts on what arrives from now on, not on what this device already has. (Loaded
	// here: the muted words' read at a list's start, loadMuteRule, must not carry it.)
	const { startRuleMemory } = await import('./memory');
	await startRuleMemory(account);
	await putStored(RULES(account), next);
	// A rule taken away takes its list of matches with it.
	const hits = await getStored(RULE_HITS(account));
	const kept = new Set(next.rules.map((r) => r.id));
	if (Object.keys(hits).some((id) => !kept.has(id)))
		await putStored(
			RULE_HITS(account),
			Object.fromEntries(Object.entries(hits).filter(([id]) => kept.has(id)))
		);
}

/** The muted words, as the mute module reads them. */
export async function loadMuteRule(account: string): Promise<MuteRule | undefined> {
	return (await loadRules(account)).rules.find((r): r is MuteRule => r.kind === 'mute');
}

/** Replaces the muted words (none: the rule goes), keeping every other rule. */
export async function saveMuteRule(
	account: string,
	mute: Omit<MuteRule, 'kind' | 'id'>
): Promise<void> {
	const { rules } = await loadRules(account);
	const others = rules.filter((r) => r.kind !== 'mute');
	const rule: MuteRule = { kind: 'mute', id: 'mute', ...mute };
	await saveRules(account, { rules: mute.words.length > 0 ? [rule, ...others] : others });
}

/** Adds a run's matches to each rule's list (newest first, bounded). */
export async function recordRuleHits(
	account: string,
	matched: readonly { ruleId: string; ids: readonly number[] }[]
): Promise<void> {
	if (matched.length === 0) return;
	// Read and written in one transaction: two runs at once (page and worker, without Web Locks)
	// each add their own.
	await updateStored(RULE_HITS(account), (hits) => {
		const next = { ...hits };
		for (const { ruleId, ids } of matched) next[ruleId] = withHits(next[ruleId] ?? [], ids);
		return next;
	});
}

/** The ids of the articles a rule matched, newest first. */
export async function loadRuleHits(account: string, ruleId: string): Promise<number[]> {
	return (await getStored(RULE_HITS(account)))[ruleId] ?? [];
}
