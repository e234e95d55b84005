/**
 * The parsers of the replies that carry articles (getHeadlines, getArticle): a headline or an
 * article with its labels, tags, attachments and the Reader plugin's signed addresses, from the
 * wire shapes recorded from real servers (tests/fixtures/recorded) into `types.ts`. Each throws
 * ShapeError on a shape it cannot use, as the other parsers (api/parse.ts).
 */
import { labelIdFromWire, MODERN_LABELS, type LabelCaps } from './capabilities';
import type {
	Article,
	ArticleBase,
	Attachment,
	Headline,
	HeadlinesHeader,
	HeadlinesResult,
	Label
} from './types';
import {
	arr,
	bool,
	isObject,
	list,
	num,
	obj,
	optNumber,
	optString,
	optText,
	stringRecord,
	text,
	type JsonObject
} from './wire';

function parseAttachment(value: unknown): Attachment {
	// Attachments carry named keys and numeric duplicates ("0", "1", …): only named keys are read.
	const o = obj(value, 'attachment');
	return {
		id: num(o.id, 'attachment.id'),
		contentUrl: text(o.content_url),
		contentType: text(o.content_type),
		title: text(o.title),
		duration: optNumber(o.duration),
		width: optNumber(o.width),
		height: optNumber(o.height),
		postId: optNumber(o.post_id)
	};
}

/** Headline labels are `[[feed_style_id, caption, fg_color, bg_color], …]`. */
function parseLabelRef(value: unknown, caps: LabelCaps): Label {
	if (Array.isArray(value)) {
		return {
			id: labelIdFromWire(num(value[0], 'label id'), caps),
			caption: text(value[1]),
			fgColor: text(value[2]),
			bgColor: text(value[3])
		};
	}
	const o = obj(value, 'label');
	return {
		id: labelIdFromWire(num(o.id, 'label id'), caps),
		caption: text(o.caption),
		fgColor: text(o.fg_color),
		bgColor: text(o.bg_color)
	};
}

function parseTags(value: unknown): string[] {
	const raw = Array.isArray(value)
		? value.map((tag) => optString(tag) ?? '')
		: typeof value === 'string'
			? value.split(',')
			: [];
	return raw.map((tag) => tag.trim()).filter((tag) => tag !== '');
}

/**
 * The Reader plugin's `reader_images` (package/init.php): every image URL it signed for the row
 * (body, srcset, posters, image enclosures, the flavor image) → its proxy address. PHP sends an
 * empty one as `[]` or `{}`; undefined where the plugin did not run for the row.
 */
function signedImages(value: unknown): Record<string, string> | undefined {
	if (value === undefined || value === null) return undefined;
	const record = stringRecord(value);
	if (record === undefined) return undefined;
	return Object.fromEntries(Object.entries(record).filter(([, proxied]) => proxied !== ''));
}

/**
 * The flavor image through the proxy when the plugin signed it; none when the plugin signs this
 * row's images but not that one (it is never loaded from its host then). tt-rss names it by its own
 * URL, and 2021's picks it only after the plugin's hook, so the plugin cannot rewrite it there.
 */
function proxiedFlavor(
	signed: Record<string, string> | undefined,
	flavor: unknown
): string | undefined {
	const url = optText(flavor);
	if (url === undefined || signed === undefined) return url;
	return signed[url];
}

/** The plugin's signed page address (`reader_page`), kept only when it is a string. */
function pageUrlOf(value: unknown): { pageUrl?: string } {
	return typeof value === 'string' && value.trim() !== '' ? { pageUrl: value.trim() } : {};
}

function parseArticleBase(o: JsonObject, caps: LabelCaps): ArticleBase {
	const feedId = optNumber(o.feed_id);
	const signed = signedImages(o.reader_images);
	return {
		id: num(o.id, 'id'),
		guid: text(o.guid),
		title: text(o.title),
		link: text(o.link),
		unread: bool(o.unread),
		marked: bool(o.marked),
		published: bool(o.published),
		updated: optNumber(o.updated) ?? 0,
		feedId: feedId ?? null,
		feedTitle: optString(o.feed_title),
		author: text(o.author),
		labels: list(o.labels, 'labels', (l) => parseLabelRef(l, caps)),
		attachments: list(o.attachments, 'attachments', parseAttachment),
		score: optNumber(o.score) ?? 0,
		note: optText(o.note),
		lang: optText(o.lang),
		content: optString(o.content),
		flavorImage: proxiedFlavor(signed, o.flavor_image),
		flavorStream: optText(o.flavor_stream),
		siteUrl: optText(o.site_url),
		...(signed ? { signedImages: signed } : {}),
		...pageUrlOf(o.reader_page)
	};
}

export function parseHeadline(value: unknown, caps: LabelCaps = MODERN_LABELS): Headline {
	const o = obj(value, 'headline');
	return {
		...parseArticleBase(o, caps),
		isUpdated: bool(o.is_updated),
		tags: parseTags(o.tags),
		excerpt: optString(o.excerpt),
		commentsCount: optNumber(o.comments_count) ?? 0,
		commentsLink: text(o.comments_link),
		alwaysDisplayAttachments: bool(o.always_display_attachments),
		flavorKind: optNumber(o.flavor_kind)
	};
}

function parseHeader(value: unknown): HeadlinesHeader {
	const o = obj(value, 'header');
	const id = optNumber(o.id) ?? optString(o.id) ?? 0;
	return {
		id,
		firstId: optNumber(o.first_id),
		isCat: bool(o.is_cat),
		firstIdChanged: bool(o.first_id_changed)
	};
}

/**
 * getHeadlines answers a list, or with `include_header` `[header, [headlines…]]`.
 * A header is told apart from a headline list by the second element being a list.
 */
export function parseHeadlines(content: unknown, caps: LabelCaps = MODERN_LABELS): HeadlinesResult {
	const items = arr(content, 'getHeadlines');
	if (items.length === 2 && isObject(items[0]) && Array.isArray(items[1])) {
		return {
			header: parseHeader(items[0]),
			headlines: items[1].map((h) => parseHeadline(h, caps))
		};
	}
	return { header: undefined, headlines: items.map((h) => parseHeadline(h, caps)) };
}

export function parseArticles(content: unknown, caps: LabelCaps = MODERN_LABELS): Article[] {
	// Always a list on real servers; a lone object is accepted for safety.
	const items = isObject(content) ? [content] : arr(content, 'getArticle');
	return items.map((value) => {
		const o = obj(value, 'article');
		return { ...parseArticleBase(o, caps), comments: text(o.comments) };
	});
}
