/**
 * What the rules remember per account: the articles they have considered (db/considered.ts), in
 * the IndexedDB store `sync` under `rules-memory:<account>`. Apart from store.ts, which the muted
 * words' read at a list's start loads (loadMuteRule): that read does not carry the considered
 * set's code; saving rules and running them load it.
 */
import { parseConsidered, startConsidered } from '$lib/db/considered';
import { getStored, storedKeyFamily } from '$lib/db/kv';
import type { RuleMemory } from './model';

export const RULE_MEMORY = storedKeyFamily<RuleMemory | undefined>({
	store: 'sync',
	prefix: 'rules-memory:',
	owner: 'rules/memory.ts',
	parse: parseConsidered,
	fallback: () => undefined
});

export async function loadRuleMemory(account: string): Promise<RuleMemory | undefined> {
	return getStored(RULE_MEMORY(account));
}

/**
 * A first rule acts on what arrives from now on, not on what this device already has (with
 * nothing stored yet, on what arrives after the first sync: its first run starts it then).
 */
export async function startRuleMemory(account: string): Promise<void> {
	await startConsidered(RULE_MEMORY(account));
}
