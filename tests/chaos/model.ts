/**
 * The chaos harness's model and checker (pure: no browser, no server). The model is what the
 * reader did, as the screen showed it: per article and field the intents in order, each tagged
 * with the operation that made it so an undone operation's intents can be taken out. The checker
 * compares tt-rss's final state with the model: the last intent per article per field wins; an
 * article or field nobody touched must keep the state it started with.
 */

export type Field = 'unread' | 'marked' | 'published';
export const FIELDS: readonly Field[] = ['unread', 'marked', 'published'];

export type ArticleState = Record<Field, boolean>;

export interface ModelIntent {
	articleId: number;
	field: Field;
	value: boolean;
	/** The operation (its index in the schedule) that made it. */
	op: number;
}

export type AnomalyKind = 'lost' | 'doubled' | 'widened' | 'stuck' | 'stale-screen' | 'spurious';

export interface Anomaly {
	kind: AnomalyKind;
	detail: string;
}

export class ReaderModel {
	readonly intents: ModelIntent[] = [];
	readonly #undone = new Set<number>();

	record(op: number, articleId: number, field: Field, value: boolean): void {
		this.intents.push({ op, articleId, field, value });
	}

	/** The reader undid operation `op` (its toast's Undo): its intents no longer count. */
	undo(op: number): void {
		this.#undone.add(op);
	}

	/** The value the reader last asked for, or undefined when nobody asked (undone ones do not count). */
	expected(articleId: number, field: Field): boolean | undefined {
		let value: boolean | undefined;
		for (const i of this.intents) {
			if (i.articleId === articleId && i.field === field && !this.#undone.has(i.op))
				value = i.value;
		}
		return value;
	}

	/** Whether any intent (undone or not) touched this article's field. */
	touched(articleId: number, field: Field): boolean {
		return this.intents.some((i) => i.articleId === articleId && i.field === field);
	}
}

/**
 * Compares the server's final state with the model. `initial` is the server's state before the
 * schedule; `failed` holds `articleId:field` pairs the app listed as failed (the reader was told):
 * those are not anomalies whatever the server holds.
 */
export function checkServer(
	model: ReaderModel,
	initial: ReadonlyMap<number, ArticleState>,
	final: ReadonlyMap<number, ArticleState>,
	failed: ReadonlySet<string>
): Anomaly[] {
	const anomalies: Anomaly[] = [];
	for (const [id, before] of initial) {
		const after = final.get(id);
		if (!after) {
			anomalies.push({ kind: 'lost', detail: `article ${id} is gone from the server` });
			continue;
		}
		for (const field of FIELDS) {
			if (failed.has(`${id}:${field}`)) continue;
			const want = model.expected(id, field);
			if (want === undefined) {
				if (after[field] === before[field]) continue;
				// Nobody asked (or the one who asked undid it): the server changed it anyway.
				const kind: AnomalyKind = field === 'unread' && !after.unread ? 'widened' : 'spurious';
				const undone = model.touched(id, field) ? ' (its only change was undone)' : '';
				anomalies.push({
					kind,
					detail: `article ${id} ${field}: was ${before[field]}, nobody asked, server has ${after[field]}${undone}`
				});
			} else if (after[field] !== want) {
				anomalies.push({
					kind: 'lost',
					detail: `article ${id} ${field}: reader last asked ${want}, server has ${after[field]}`
				});
			}
		}
	}
	return anomalies;
}

/** The screen's rows after settling against the server: each row's shown state must be the server's. */
export function checkScreen(
	rows: readonly { id: number; unread: boolean; marked: boolean }[],
	final: ReadonlyMap<number, ArticleState>
): Anomaly[] {
	const anomalies: Anomaly[] = [];
	for (const row of rows) {
		const server = final.get(row.id);
		if (!server) continue;
		for (const field of ['unread', 'marked'] as const) {
			if (row[field] !== server[field]) {
				anomalies.push({
					kind: 'stale-screen',
					detail: `row ${row.id} shows ${field}=${row[field]}, server has ${server[field]}`
				});
			}
		}
	}
	return anomalies;
}

/** A small seeded generator (mulberry32): the same seed gives the same schedule. */
export function rng(seed: number): {
	next: () => number;
	int: (n: number) => number;
	pick: <T>(items: readonly T[]) => T;
	weighted: <T>(items: readonly (readonly [T, number])[]) => T;
} {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (n: number) => Math.floor(next() * n);
	return {
		next,
		int,
		pick: (items) => {
			const item = items[int(items.length)];
			if (item === undefined) throw new Error('pick from nothing');
			return item;
		},
		weighted: <T>(items: readonly (readonly [T, number])[]): T => {
			const total = items.reduce((s, [, w]) => s + w, 0);
			let r = next() * total;
			let last: T | undefined;
			for (const [item, w] of items) {
				r -= w;
				last = item;
				if (r < 0) return item;
			}
			if (last === undefined) throw new Error('pick from nothing');
			return last;
		}
	};
}
