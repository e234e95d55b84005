/**
 * The chaos harness's model and checker (pure: no browser, no server). The model is what the
 * reader did, as the screen showed it: per article and field the intents in order, each tagged
 * with the operation that made it so an undone operation's intents can be taken out. The checker
 * compares tt-rss's final state with the model: the last intent per article per field wins; an
 * article or field nobody touched must keep the state it started with.
 *
 * The model's reader sees rows (issue 55): every row the driver found on screen, and what a row
 * told of the copies a read takes along. A change nobody asked for on an article the reader never
 * saw is **unseen-change**, whether the server or the device's cache holds it. Besides the reader,
 * only two may change an article: a server-side actor (`elsewhere`: another device, tt-rss
 * itself) and the reader's own rules, under their contract (`rulesRan`): a rule acts on every
 * article that arrived after it was made and that the reader has not changed since it arrived, and
 * on no other.
 */

export type Flag = 'unread' | 'marked' | 'published';
export const FIELDS: readonly Flag[] = ['unread', 'marked', 'published'];
/** A flag, or one label (`label:<id>`): labels are absolute per article, like the flags. */
export type Field = Flag | `label:${number}`;

export const labelField = (id: number): Field => `label:${id}`;

export interface ArticleState extends Record<Flag, boolean> {
	/** The ids of the labels the article has. */
	labels?: readonly number[];
	/** The article's note ('' for none). */
	note?: string;
}

function valueOf(state: ArticleState, field: Field): boolean {
	if (field.startsWith('label:')) return (state.labels ?? []).includes(Number(field.slice(6)));
	return state[field as Flag];
}

/** The fields to compare for one article: its flags and every label it had, has or was given. */
function fieldsOf(model: ReaderModel, id: number, ...states: ArticleState[]): Field[] {
	const labels = new Set<number>(states.flatMap((s) => s.labels ?? []));
	for (const i of model.intents)
		if (i.articleId === id && i.field.startsWith('label:')) labels.add(Number(i.field.slice(6)));
	return [...FIELDS, ...[...labels].sort((a, b) => a - b).map(labelField)];
}

export interface ModelIntent {
	articleId: number;
	field: Field;
	value: boolean;
	/** The operation (its index in the schedule) that made it. */
	op: number;
	/**
	 * The reader's tap whose outcome never showed within the step's limit (a row tapped, the
	 * article never opened, the row still unread): the app may act on it later or never, so either
	 * value is what the reader saw last, until a later intent on the same field.
	 */
	unseen?: true;
	/**
	 * Who asked, when not the reader: a server-side actor (another device, tt-rss itself) or one of
	 * the reader's rules (`rule:<id>`).
	 */
	by?: 'elsewhere' | `rule:${string}`;
	/** A copy of a story that a read on its row took along (the row told the reader so). */
	copy?: true;
}

export type AnomalyKind =
	| 'lost'
	| 'doubled'
	| 'widened'
	| 'stuck'
	| 'stale-screen'
	| 'spurious'
	| 'misdirected'
	/** A change nobody asked for, on an article the reader never saw (issue 55). */
	| 'unseen-change';

export interface Anomaly {
	kind: AnomalyKind;
	detail: string;
}

/** A note the reader saved on an article (notes are text: apart from the flags' intents). */
export interface NoteIntent {
	articleId: number;
	text: string;
	op: number;
}

/**
 * A page the reader shared to Published (its title unique in the schedule). `seen`: the app said
 * it was shared or kept for later; otherwise the answer never showed within the step's limit.
 */
export interface ShareIntent {
	title: string;
	op: number;
	seen: boolean;
}

/**
 * A rule of the reader's as the checker knows it: what it sets, and which articles it matches
 * (its query and scope over the articles, worked out by whoever records the trace).
 */
export interface RuleModel {
	id: string;
	field: Field;
	value: boolean;
	matches: (articleId: number) => boolean;
}

export class ReaderModel {
	readonly intents: ModelIntent[] = [];
	readonly notes: NoteIntent[] = [];
	readonly shares: ShareIntent[] = [];
	/** Catch-ups (a feed's, mark above/below) by operation: the rows they were to cover. */
	readonly catchups = new Map<number, readonly number[]>();
	readonly #undone = new Set<number>();
	/**
	 * The same story's other articles, by the harness's own standard (`sameStoryGroups`, never the
	 * app's grouping: a checker that asks the app what a copy is cannot find a wrong copy).
	 */
	#copies = new Map<number, readonly number[]>();
	/** Every article whose row the reader's screen showed. */
	readonly #seen = new Set<number>();
	/** A row → the copies it told the reader a read takes along ("also in …"). */
	readonly #told = new Map<number, Set<number>>();
	/** When each article reached the device (the operation), for the rules. */
	readonly #arrived = new Map<number, number>();
	/** The operation at which each rule was made, and the articles each has considered. */
	readonly #rules = new Map<string, { madeAt: number; considered: Set<number> }>();

	/** The same story's groups (`sameStoryGroups`): each article → the other articles of its story. */
	setCopies(groups: readonly (readonly number[])[]): void {
		this.#copies = new Map();
		for (const group of groups)
			for (const id of group)
				this.#copies.set(
					id,
					group.filter((other) => other !== id)
				);
	}

	/** Rows the reader's screen showed. */
	saw(ids: Iterable<number>): void {
		for (const id of ids) this.#seen.add(id);
	}

	/**
	 * Row `rowId` told the reader that a read takes these articles along ("also in …"): each is a
	 * copy the reader saw named, but only a copy of the same story may follow (`setCopies`).
	 */
	sawCopies(rowId: number, ids: Iterable<number>): void {
		const told = this.#told.get(rowId) ?? new Set<number>();
		for (const id of ids) told.add(id);
		this.#told.set(rowId, told);
	}

	/** Whether the reader saw the article: its row on screen, or acted on it themselves. */
	hasSeen(articleId: number): boolean {
		return (
			this.#seen.has(articleId) ||
			this.intents.some((i) => i.articleId === articleId && i.by === undefined && !i.copy)
		);
	}

	record(op: number, articleId: number, field: Field, value: boolean): void {
		this.intents.push({ op, articleId, field, value });
		this.#copiesFollow(op, articleId, field, value);
	}

	/** A tap whose outcome the screen never showed (`ModelIntent.unseen`). */
	recordUnseen(op: number, articleId: number, field: Field, value: boolean): void {
		this.intents.push({ op, articleId, field, value, unseen: true });
		this.#copiesFollow(op, articleId, field, value);
	}

	/**
	 * Read or unread on a story's row may reach its copies, or not (grouping loaded or not) — a
	 * copy only when it is the same story and the row told the reader so; any other article a
	 * read takes along is one the reader never chose.
	 */
	#copiesFollow(op: number, articleId: number, field: Field, value: boolean): void {
		if (field !== 'unread') return;
		const told = this.#told.get(articleId);
		for (const copy of this.#copies.get(articleId) ?? [])
			if (told?.has(copy))
				this.intents.push({ op, articleId: copy, field, value, unseen: true, copy: true });
	}

	/** A server-side actor (another device, tt-rss itself) set the field at `op`. */
	elsewhere(op: number, articleId: number, field: Field, value: boolean): void {
		this.intents.push({ op, articleId, field, value, by: 'elsewhere' });
	}

	/** These articles reached the device at `op` (a sync, a list): what the rules consider. */
	arrived(op: number, ids: Iterable<number>): void {
		for (const id of ids) if (!this.#arrived.has(id)) this.#arrived.set(id, op);
	}

	/** The reader made rule `id` at `op`: it acts on articles that arrive after. */
	ruleMade(op: number, id: string): void {
		this.#rules.set(id, { madeAt: op, considered: new Set() });
	}

	/**
	 * The rules ran at `op` (after a sync): each considers, once, the articles that arrived after
	 * it was made. One it matches gets its change unless the reader changed that field since the
	 * article arrived (then it must not act); a reader's change of another field since, or one
	 * made before the article arrived, lets it act or not.
	 */
	rulesRan(op: number, rules: readonly RuleModel[]): void {
		for (const rule of rules) {
			const memory = this.#rules.get(rule.id);
			if (!memory) continue;
			for (const [id, at] of this.#arrived) {
				if (at <= memory.madeAt || at > op || memory.considered.has(id)) continue;
				memory.considered.add(id);
				if (!rule.matches(id)) continue;
				const readers = this.intents.filter(
					(i) => i.articleId === id && i.by === undefined && !this.#undone.has(i.op)
				);
				if (readers.some((i) => i.field === rule.field && i.op >= at)) continue;
				const either = readers.length > 0;
				this.intents.push({
					op,
					articleId: id,
					field: rule.field,
					value: rule.value,
					by: `rule:${rule.id}`,
					...(either ? { unseen: true as const } : {})
				});
			}
		}
	}

	/** The last intent of this article's field, undone ones left out. */
	#last(articleId: number, field: Field): ModelIntent | undefined {
		return this.intents.findLast(
			(i) => i.articleId === articleId && i.field === field && !this.#undone.has(i.op)
		);
	}

	/** Whether the last intent (undone ones left out) of this field is a tap with no outcome shown. */
	lastUnseen(articleId: number, field: Field): boolean {
		return this.#last(articleId, field)?.unseen === true;
	}

	/**
	 * A catch-up of the rows the reader saw (a feed's "Mark as read", mark above/below): each of
	 * `ids` is to be read; nothing else is.
	 */
	catchup(op: number, ids: readonly number[]): void {
		this.catchups.set(op, ids);
		for (const id of ids) this.record(op, id, 'unread', false);
	}

	/** The operation of the last intent (undone ones left out) of this article's field. */
	lastOp(articleId: number, field: Field): number | undefined {
		return this.#last(articleId, field)?.op;
	}

	/** The reader saved `text` as the article's note (shown in its view). */
	recordNote(op: number, articleId: number, text: string): void {
		this.notes.push({ op, articleId, text });
	}

	/** The reader shared a page titled `title`; `seen` when the app said so. */
	recordShare(op: number, title: string, seen: boolean): void {
		this.shares.push({ op, title, seen });
	}

	/** The note the reader last saved on the article, or undefined when none was saved. */
	expectedNote(articleId: number): string | undefined {
		return this.notes.findLast((n) => n.articleId === articleId)?.text;
	}

	/** Operation `op`'s outcome never showed clearly: each of its intents becomes a tap unseen. */
	markUnseen(op: number): void {
		for (const intent of this.intents) if (intent.op === op) intent.unseen = true;
	}

	/** The reader undid operation `op` (its toast's Undo): its intents no longer count. */
	undo(op: number): void {
		this.#undone.add(op);
	}

	/** The value the reader last asked for, or undefined when nobody asked (undone ones do not count). */
	expected(articleId: number, field: Field): boolean | undefined {
		return this.#last(articleId, field)?.value;
	}

	/** Whether any intent (undone or not) touched this article's field. */
	touched(articleId: number, field: Field): boolean {
		return this.intents.some((i) => i.articleId === articleId && i.field === field);
	}

	/** Who asked for the last intent of this field (undone ones left out): the reader, or not. */
	lastBy(articleId: number, field: Field): ModelIntent['by'] {
		return this.#last(articleId, field)?.by;
	}
}

/**
 * A change nobody asked for: **unseen-change** when the reader never saw the article, else
 * widened (read) or spurious (anything else).
 */
function unaskedKind(model: ReaderModel, id: number, field: Field, has: boolean): AnomalyKind {
	if (!model.hasSeen(id)) return 'unseen-change';
	return field === 'unread' && !has ? 'widened' : 'spurious';
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
		for (const field of fieldsOf(model, id, before, after)) {
			if (failed.has(`${id}:${field}`)) continue;
			// The reader's last tap on it showed no outcome: either state is what they saw.
			if (model.lastUnseen(id, field)) continue;
			const want = model.expected(id, field);
			const was = valueOf(before, field);
			const has = valueOf(after, field);
			if (want === undefined) {
				if (has === was) continue;
				// Nobody asked (or the one who asked undid it): the server changed it anyway.
				const kind = unaskedKind(model, id, field, has);
				const undone = model.touched(id, field) ? ' (its only change was undone)' : '';
				const unseen = kind === 'unseen-change' ? ', the reader never saw it' : '';
				anomalies.push({
					kind,
					detail: `article ${id} ${field}: was ${was}, nobody asked${unseen}, server has ${has}${undone}`
				});
			} else if (has !== want) {
				// Read against the reader's last "unread", with a catch-up after it that did not name
				// it: that catch-up went wider than the rows the reader saw.
				const last = model.lastOp(id, field) ?? -1;
				const wider =
					field === 'unread' && !has
						? [...model.catchups.keys()].find((op) => op > last)
						: undefined;
				const by = model.lastBy(id, field);
				anomalies.push(
					wider === undefined
						? {
								kind: 'lost',
								detail: `article ${id} ${field}: ${by === undefined ? 'reader' : by} last asked ${want}, server has ${has}`
							}
						: {
								kind: 'widened',
								detail: `article ${id} unread: reader last asked true (op ${last}), server has it read; catch-up op ${wider} did not cover it`
							}
				);
			}
		}
	}
	return anomalies;
}

/**
 * Notes: each article's note on the server is the last one the reader saved, or the one it had
 * when nobody saved one. `failed` holds the ids of articles whose note the app listed as failed.
 */
export function checkNotes(
	model: ReaderModel,
	initial: ReadonlyMap<number, ArticleState>,
	final: ReadonlyMap<number, ArticleState>,
	failed: ReadonlySet<number>
): Anomaly[] {
	const anomalies: Anomaly[] = [];
	for (const [id, before] of initial) {
		const after = final.get(id);
		if (!after || failed.has(id)) continue;
		const want = model.expectedNote(id);
		const has = after.note ?? '';
		if (want === undefined) {
			if (has !== (before.note ?? ''))
				anomalies.push({
					kind: 'spurious',
					detail: `article ${id} note: was ${JSON.stringify(before.note ?? '')}, nobody asked, server has ${JSON.stringify(has)}`
				});
		} else if (has !== want) {
			anomalies.push({
				kind: 'lost',
				detail: `article ${id} note: reader last saved ${JSON.stringify(want)}, server has ${JSON.stringify(has)}`
			});
		}
	}
	return anomalies;
}

/**
 * Shares: each page the reader shared is on the server's Published feed once, never twice
 * (**doubled**); one the app said it shared or kept is there (else **lost**), unless the reader
 * was told it failed (`failed`, by title); one whose answer never showed may be there or not.
 * `published` counts the Published feed's articles by title.
 */
export function checkShares(
	model: ReaderModel,
	published: ReadonlyMap<string, number>,
	failed: ReadonlySet<string>
): Anomaly[] {
	const anomalies: Anomaly[] = [];
	for (const share of model.shares) {
		const count = published.get(share.title) ?? 0;
		if (count > 1)
			anomalies.push({
				kind: 'doubled',
				detail: `"${share.title}" (op ${share.op}) is on the server ${count} times`
			});
		else if (count === 0 && share.seen && !failed.has(share.title))
			anomalies.push({
				kind: 'lost',
				detail: `"${share.title}" (op ${share.op}): the app said it was shared, the server lacks it`
			});
	}
	return anomalies;
}

/** One request tt-rss received (the proxy's history): its op and parameters. */
export interface SentRequest {
	op: string;
	params: Record<string, unknown>;
	forwarded: boolean;
	/** The account it acts for (its login's user, or the owner of its session id), when known. */
	account?: string;
}

/** The API calls that change an account's articles or feeds: what only its reader may cause. */
const WRITES = new Set([
	'updateArticle',
	'catchupFeed',
	'setArticleLabel',
	'shareToPublished',
	'subscribeToFeed',
	'unsubscribeFeed'
]);

/**
 * Where the reader signed out and another account came and went (requests by their index in the
 * wire's history): from `signedOut` (the sign-in page shown) to `back` (the first account's own
 * sign-in sent again).
 */
export interface AccountSpan {
	signedOut: number;
	back: number;
}

/**
 * Nothing of one account acts as another, nothing outlives its sign-out: no write made with the
 * other account's session (`other` changed nothing of its own in the schedule), and no login of
 * `user` between a sign-out and the reader's own sign-in again (a replay left running would sign
 * the account back in on a device its reader signed out of).
 */
export function checkAccounts(
	sent: readonly SentRequest[],
	user: string,
	other: string,
	spans: readonly AccountSpan[]
): Anomaly[] {
	const anomalies: Anomaly[] = [];
	for (const [index, r] of sent.entries()) {
		if (r.account === other && WRITES.has(r.op)) {
			anomalies.push({
				kind: 'misdirected',
				detail: `${r.op} ${JSON.stringify(r.params).slice(0, 120)} sent with ${other}'s session (request ${index})`
			});
		}
		if (
			r.op === 'login' &&
			r.account === user &&
			spans.some((s) => index >= s.signedOut && index < s.back)
		) {
			anomalies.push({
				kind: 'misdirected',
				detail: `${user} logged in again after signing out (request ${index})`
			});
		}
	}
	return anomalies;
}

/** An updateArticle that marks read: field 2 (unread), mode 0 (false). */
function isMarkRead(params: Record<string, unknown>): boolean {
	const text = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? String(v) : '');
	return text(params.field) === '2' && text(params.mode) === '0';
}

/**
 * No catch-up wider than what the reader saw, on the wire: every article a forwarded
 * `updateArticle` marked read (field 2, mode 0) is one the reader asked to be read (an open, a
 * Mark read, a catch-up of rows shown, a bulk Mark read), even when it was read already and the
 * server's state could not tell.
 */
export function checkWire(model: ReaderModel, sent: readonly SentRequest[]): Anomaly[] {
	// The reader's reads, and their rules' (a rule's change goes out as the reader's would).
	const asked = new Set(
		model.intents
			.filter((i) => i.field === 'unread' && !i.value && i.by !== 'elsewhere')
			.map((i) => i.articleId)
	);
	const anomalies: Anomaly[] = [];
	const named = new Set<number>();
	for (const r of sent) {
		if (!r.forwarded || r.op !== 'updateArticle') continue;
		if (!isMarkRead(r.params)) continue;
		for (const id of String((r.params.article_ids as string | number | undefined) ?? '')
			.split(',')
			.filter(Boolean)
			.map(Number)) {
			if (asked.has(id) || named.has(id)) continue;
			named.add(id);
			const seen = model.hasSeen(id);
			anomalies.push({
				kind: seen ? 'widened' : 'unseen-change',
				detail: `updateArticle marked article ${id} read; the reader asked no such thing${seen ? '' : ' and never saw it'}`
			});
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

/** A cached article's flags, as the device's `articles` store holds them. */
export interface CachedFlags {
	id: number;
	unread: boolean;
	marked: boolean;
	published: boolean;
}

/**
 * The device's cache after the drain: a cached flag that differs from the server's final state
 * and from the article's state at the start, which nobody asked for (the reader, a rule, a
 * server-side actor), is a change the device made by itself — a sync that took a shifted page set
 * as whole marked a still-unread article read (issue 55, item 5). A cached copy that only lags
 * (the start's state) is not judged here: the next sync reads it again.
 */
export function checkCache(
	model: ReaderModel,
	initial: ReadonlyMap<number, ArticleState>,
	final: ReadonlyMap<number, ArticleState>,
	cached: readonly CachedFlags[]
): Anomaly[] {
	const anomalies: Anomaly[] = [];
	for (const row of cached) {
		const before = initial.get(row.id);
		const after = final.get(row.id);
		if (!before || !after) continue;
		for (const field of FIELDS) {
			const has = row[field];
			if (has === after[field] || has === before[field] || model.touched(row.id, field)) continue;
			const kind = unaskedKind(model, row.id, field, has);
			anomalies.push({
				kind,
				detail: `cached article ${row.id} ${field}: ${has} on the device, ${after[field]} on the server, nobody asked${kind === 'unseen-change' ? ', the reader never saw it' : ''}`
			});
		}
	}
	return anomalies;
}

/** An article as the harness's own standard of "the same story" reads it. */
export interface StoryRow {
	id: number;
	feedId: number | null;
	link: string;
}

/** An article address as a key: host case-folded, a trailing slash left out, fragment kept. */
function addressKey(link: string): string | undefined {
	try {
		const url = new URL(link.trim());
		if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
		const path = url.pathname.replace(/\/+$/, '');
		// A site's root names no article of its own.
		if (path === '' && url.search === '' && url.hash === '') return undefined;
		return `${url.host.toLowerCase()}${path}${url.search}${url.hash}`;
	} catch {
		return undefined;
	}
}

/**
 * The harness's own standard of "the same story" (apart from the app's dedupe/, so a wrong
 * grouping shows): articles of different feeds whose addresses name the same article — not a
 * site's root, and not an address two items of one feed share (a feed whose items all link to
 * one page says nothing by its links). Stricter than the app may be (titles and excerpts are not
 * read): a copy the app joins by its title alone counts as another story here.
 */
export function sameStoryGroups(rows: readonly StoryRow[]): number[][] {
	const byKey = new Map<string, StoryRow[]>();
	for (const row of rows) {
		const key = addressKey(row.link);
		if (key === undefined) continue;
		byKey.set(key, [...(byKey.get(key) ?? []), row]);
	}
	const groups: number[][] = [];
	for (const group of byKey.values()) {
		const feeds = group.map((r) => r.feedId ?? `a${r.id}`);
		if (new Set(feeds).size !== feeds.length || group.length < 2) continue;
		groups.push(group.map((r) => r.id));
	}
	return groups;
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
