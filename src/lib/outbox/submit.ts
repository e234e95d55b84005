import { ArticleField, UpdateMode } from '$lib/api';
import { session } from '$lib/state/session.svelte';
import type { Intent } from './intent';

const FLAG_FIELD = {
	unread: ArticleField.Unread,
	starred: ArticleField.Starred,
	published: ArticleField.Published
} as const;

/**
 * The one door for article updates. Resolves once the intent is safe (today: sent to the
 * server; with the offline outbox: written to IndexedDB, then sent when the server is reachable).
 * The caller has already applied the change to what the reader sees.
 */
export async function submitIntent(intent: Intent): Promise<void> {
	const client = session.client;
	switch (intent.type) {
		case 'flag':
			await client.updateArticle({
				articleIds: intent.articleIds,
				field: FLAG_FIELD[intent.field],
				mode: intent.value ? UpdateMode.True : UpdateMode.False
			});
			return;
		case 'note':
			await client.updateArticle({
				articleIds: [intent.articleId],
				field: ArticleField.Note,
				data: intent.note
			});
			return;
		case 'label':
			await client.setArticleLabel(intent);
			return;
		case 'catchup':
			await client.catchupFeed(intent);
			return;
		case 'share':
			await client.shareToPublished(intent);
			return;
	}
}
