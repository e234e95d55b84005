import type { SignedImages } from '$lib/content/url';
import type { SessionTrack } from '$lib/media/media-session';
import type { OpenArticle } from '$lib/state/article.svelte';

/** What an article's enclosures need of the article view (ArticleReading.svelte passes them on). */
export interface AttachmentsProps {
	article: OpenArticle;
	/** The article's own link: relative addresses resolve against it. */
	link: string | undefined;
	/** How its images may load (content/url.ts `signedImagesOf`): through the plugin's proxy only? */
	signedImages: SignedImages;
	track: SessionTrack;
	onnext: (() => void) | undefined;
	onprevious: (() => void) | undefined;
	/** The first audio or video starts by itself (after the lock screen's "next"). */
	autoplayFirst: boolean;
}
