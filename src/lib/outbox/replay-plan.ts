/**
 * The replay's plan, pure: which requests the queued items make and in what order (planCalls:
 * coalesced article calls between barriers, held and put-off items left waiting), what may
 * overtake a held catch-up, which of a scope's unread articles a catch-up covers when it is sent
 * by ids (existedThen), and when a put-off item is tried again (retryAt). No storage, no network:
 * replay.ts sends the plan (replay-send.ts) and keeps the books (replay-records.ts).
 */
import type { SharedItems } from '$lib/api/shared-settings-op';
import {
	ArticleField,
	UpdateMode,
	type Headline,
	type SetArticleLabelParams,
	type UpdateArticleParams
} from '$lib/api';
import type { OutboxItem } from '$lib/db/schema';
import { isHeld } from './hold-note';
import type { ArticleFlag, CatchupIntent, Intent } from './intent';
import { mayOvertake } from './order';

/** updateArticle/setArticleLabel take id lists; keep each request's body moderate. */
export const MAX_IDS_PER_CALL = 500;

const FLAG_FIELD: Record<ArticleFlag, ArticleField> = {
	unread: ArticleField.Unread,
	starred: ArticleField.Starred,
	published: ArticleField.Published
};

type ShareIntent = Extract<Intent, { type: 'share' }>;

/**
 * One request the replay will send, as data: the items it carries, and what to send (the article
 * calls' parameters; a catch-up or a share, which decide their requests when sent: replay-send.ts).
 */
export type PlannedCall =
	| { op: 'updateArticle'; items: OutboxItem[]; params: UpdateArticleParams }
	| { op: 'setArticleLabel'; items: OutboxItem[]; params: SetArticleLabelParams }
	| { op: 'catchupFeed'; items: OutboxItem[]; item: OutboxItem; intent: CatchupIntent }
	| { op: 'shareToPublished'; items: OutboxItem[]; item: OutboxItem; intent: ShareIntent }
	| { op: 'sharedSettings'; items: OutboxItem[]; put: SharedItems };

/**
 * Groups the items into calls, oldest stretch first; deferred items stop it at the next barrier.
 * Held items (outbox/hold.ts: the reader may still undo them) wait like deferred ones, but a held
 * catch-up does not stop everything: only what it could reach waits behind it (`mayOvertake`).
 */
export function planCalls(items: readonly OutboxItem[], now: number): PlannedCall[] {
	const calls: PlannedCall[] = [];
	let group = new Map<string, OutboxItem[]>();
	let deferredInStretch = false;
	const heldCatchups: CatchupIntent[] = [];
	const flush = (): void => {
		for (const members of group.values()) calls.push(...callsFor(members));
		group = new Map();
	};
	for (const item of [...items].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
		if (item.notBefore !== undefined && item.notBefore > now) {
			// A put-off catch-up is still a barrier: nothing queued after it may overtake it.
			if (item.intent.type === 'catchup') break;
			deferredInStretch = true;
			continue;
		}
		if (heldCatchups.some((held) => !mayOvertake(item.intent, held))) {
			// A catch-up put off behind a held one is a barrier of its own: what it could reach
			// waits behind it too, as behind a catch-up that is sent in order.
			if (item.intent.type === 'catchup') heldCatchups.push(item.intent);
			deferredInStretch = true;
			continue;
		}
		if (isHeld(item, now)) {
			if (item.intent.type === 'catchup') heldCatchups.push(item.intent);
			deferredInStretch = true;
			continue;
		}
		const intent = item.intent;
		if (intent.type === 'catchup') {
			flush();
			// A deferred change before this catch-up must reach the server first.
			if (deferredInStretch) return calls;
			calls.push(callsFor([item])[0] as PlannedCall);
			continue;
		}
		const key = groupKey(intent, item);
		const members = group.get(key);
		if (members) members.push(item);
		else group.set(key, [item]);
	}
	flush();
	return calls;
}

function groupKey(intent: Intent, item: OutboxItem): string {
	switch (intent.type) {
		case 'flag':
			return `flag:${intent.field}:${intent.value}`;
		case 'label':
			return `label:${intent.labelId}:${intent.assign}`;
		case 'note':
			return `note:${intent.note}`;
		case 'setting':
			return 'setting';
		default:
			return `single:${item.seq ?? item.key}`;
	}
}

function idsOf(items: readonly OutboxItem[]): number[] {
	return items
		.flatMap((i) => ('articleIds' in i.intent ? i.intent.articleIds : []))
		.concat(items.flatMap((i) => (i.intent.type === 'note' ? [i.intent.articleId] : [])));
}

export function chunk<T>(list: readonly T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
	return out;
}

/** updateArticle calls of at most MAX_IDS_PER_CALL articles, each the same change. */
function updateCalls(
	members: OutboxItem[],
	update: Omit<UpdateArticleParams, 'articleIds'>
): PlannedCall[] {
	return chunk(members, MAX_IDS_PER_CALL).map((items) => ({
		op: 'updateArticle',
		items,
		params: { articleIds: idsOf(items), ...update }
	}));
}

/** The settings' changes as the plugin takes them (one per key: split.ts keeps the latest). */
function settingsPut(members: readonly OutboxItem[]): SharedItems {
	const put: SharedItems = {};
	for (const { intent } of members) {
		if (intent.type === 'setting') put[intent.key] = { value: intent.value, mtime: intent.mtime };
	}
	return put;
}

export function callsFor(members: OutboxItem[]): PlannedCall[] {
	const first = members[0]?.intent;
	if (!first) return [];
	switch (first.type) {
		case 'flag':
			return updateCalls(members, {
				field: FLAG_FIELD[first.field],
				mode: first.value ? UpdateMode.True : UpdateMode.False
			});
		case 'note':
			return updateCalls(members, { field: ArticleField.Note, data: first.note });
		case 'label':
			return chunk(members, MAX_IDS_PER_CALL).map((items) => ({
				op: 'setArticleLabel',
				items,
				params: { articleIds: idsOf(items), labelId: first.labelId, assign: first.assign }
			}));
		case 'catchup':
			return [{ op: 'catchupFeed', items: members, item: members[0] as OutboxItem, intent: first }];
		case 'share':
			return [
				{ op: 'shareToPublished', items: members, item: members[0] as OutboxItem, intent: first }
			];
		case 'setting':
			return [{ op: 'sharedSettings', items: members, put: settingsPut(members) }];
	}
}

/**
 * Which of the scope's unread articles existed when the reader caught up: those up to `maxId`
 * (they had them), and, since tt-rss numbers articles as they arrive, the lowest ids up to the
 * unread count the reader saw (`unreadSeen`): older articles they had not loaded (one feed update
 * numbers its articles newest first, so those can have higher ids than the loaded ones) are in,
 * what arrived later is out.
 */
export function existedThen(intent: CatchupIntent, unread: readonly Headline[]): Set<number> {
	const ids = unread.map((h) => h.id).sort((a, b) => a - b);
	const { maxId, unreadSeen } = intent;
	const seen = maxId === undefined ? ids.length : ids.filter((id) => id <= maxId).length;
	return new Set(ids.slice(0, Math.max(seen, unreadSeen ?? 0)));
}

/** When an item put off after its `attempts`-th failure is tried again: 30 s, 1 min, 2 min … at most an hour. */
export function retryAt(attempts: number, now: number): number {
	return now + Math.min(3_600_000, 30_000 * 2 ** (attempts - 1));
}
