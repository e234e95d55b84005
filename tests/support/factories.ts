/**
 * The one factory module of the specs: the app's records as the test bed's servers send or a
 * sign-in stores them, with the fields a test is about given as overrides. Pure builders; fakes
 * that answer requests are beside it (fake-server.ts, model-server.ts, recorded-server.ts).
 */
import { headlineOnlyDefaults, type Headline, type TreeCategory, type TreeFeed } from '$lib/api';
import type { StoredSession } from '$lib/db/schema';

/** A headline of feed 1, unread, as getHeadlines sends it. */
export function headline(id: number, patch: Partial<Headline> = {}): Headline {
	return {
		id,
		guid: `g${id}`,
		title: `Article ${id}`,
		link: `http://feeds.test/${id}`,
		unread: true,
		marked: false,
		published: false,
		updated: 1_790_000_000,
		feedId: 1,
		feedTitle: 'Feed 1',
		author: '',
		labels: [],
		attachments: [],
		score: 0,
		note: undefined,
		lang: undefined,
		content: '',
		flavorImage: undefined,
		flavorStream: undefined,
		siteUrl: undefined,
		...headlineOnlyDefaults(),
		...patch
	};
}

/** A tree's feed by id, titled after it. */
export const feed = (id: number): TreeFeed => ({
	id,
	title: `Feed ${id}`,
	unread: 0,
	error: undefined
});

export const cat = (
	id: number,
	feeds: number[],
	categories: TreeCategory[] = []
): TreeCategory => ({
	id,
	title: `Category ${id}`,
	unread: 0,
	categories,
	feeds: feeds.map(feed)
});

/**
 * A stored session as a sign-in to the test bed leaves it (API level 15, the level of
 * tests/fixtures/recorded/api15; `recordedSession` in recorded-server.ts gives the level of either
 * folder).
 */
export function storedSession(overrides: Partial<StoredSession> = {}): StoredSession {
	return {
		apiUrl: 'http://tt.example/api/',
		user: 'reader',
		sessionId: 'sid-reader',
		apiLevel: 15,
		stayingSignedIn: false,
		singleUser: false,
		signedInAt: 1,
		...overrides
	};
}

/** The account of `storedSession()`: `reader@http://tt.example/api/`. */
export const TEST_ACCOUNT = 'reader@http://tt.example/api/';

/**
 * A key press as the window's keydown handler receives it, with no modifier unless given, and
 * `preventDefault` recorded.
 */
export function keyEvent(key: string, extra: Partial<KeyboardEvent> = {}): KeyboardEvent {
	return {
		key,
		shiftKey: false,
		ctrlKey: false,
		metaKey: false,
		altKey: false,
		isComposing: false,
		target: null,
		defaultPrevented: false,
		preventDefault(this: { defaultPrevented: boolean }) {
			this.defaultPrevented = true;
		},
		...extra
	} as unknown as KeyboardEvent;
}
