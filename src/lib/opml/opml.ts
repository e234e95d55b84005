/**
 * OPML 2.0 in and out: the one place that reads and writes the subscription-list format other
 * readers exchange. Pure: no network, no storage. Reading uses the browser's DOMParser, which
 * never fetches anything a file refers to; files that declare entities are refused before parsing,
 * so no entity expansion (the "billion laughs") can run either.
 */

import { m } from '$lib/i18n/m';

/** A category (`<outline>` with children) or a feed (`<outline xmlUrl=…>`). */
export type OpmlNode =
	| { kind: 'category'; title: string; children: OpmlNode[] }
	| { kind: 'feed'; title: string; xmlUrl: string; htmlUrl?: string | undefined };

export interface OpmlDocument {
	title: string;
	/** When the file was made. */
	created: Date;
	outlines: OpmlNode[];
}

/** A feed found in a file, with the names of the categories around it (outermost first). */
export interface OpmlFeed {
	title: string;
	xmlUrl: string;
	categoryPath: string[];
}

/** Larger files are refused unread: a subscription list of thousands of feeds is ~1 MB. */
export const MAX_OPML_BYTES = 5 * 1024 * 1024;
/** More feeds than anyone subscribes to by hand; beyond this a file is refused. */
export const MAX_OPML_FEEDS = 5000;
/**
 * Deeper nesting is no category tree a server could hold. Every outline level counts, titled or
 * not: an untitled outline adds no category but is still a level of the walk.
 */
const MAX_DEPTH = 32;

function escapeXml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;')
		.replace(/\r/g, '&#13;')
		.replace(/\n/g, '&#10;')
		.replace(/\t/g, '&#9;');
}

/** Characters XML 1.0 cannot hold at all (not even escaped): dropped rather than a broken file. */
function xmlSafe(text: string): string {
	// eslint-disable-next-line no-control-regex
	return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
}

const attr = (name: string, value: string): string => ` ${name}="${escapeXml(xmlSafe(value))}"`;

function writeNode(node: OpmlNode, indent: string, out: string[]): void {
	if (node.kind === 'feed') {
		out.push(
			`${indent}<outline type="rss"${attr('text', node.title)}${attr('title', node.title)}${attr('xmlUrl', node.xmlUrl)}${node.htmlUrl ? attr('htmlUrl', node.htmlUrl) : ''}/>`
		);
		return;
	}
	out.push(`${indent}<outline${attr('text', node.title)}${attr('title', node.title)}>`);
	for (const child of node.children) writeNode(child, `${indent}\t`, out);
	out.push(`${indent}</outline>`);
}

/** An OPML 2.0 document; every text is XML-escaped. */
export function writeOpml(doc: OpmlDocument): string {
	const out = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<opml version="2.0">',
		'\t<head>',
		`\t\t<title>${escapeXml(xmlSafe(doc.title))}</title>`,
		`\t\t<dateCreated>${doc.created.toUTCString()}</dateCreated>`,
		'\t</head>',
		'\t<body>'
	];
	for (const node of doc.outlines) writeNode(node, '\t\t', out);
	out.push('\t</body>', '</opml>', '');
	return out.join('\n');
}

export type OpmlReadResult =
	{ ok: true; title: string; feeds: OpmlFeed[] } | { ok: false; error: string };

const fail = (error: string): OpmlReadResult => ({ ok: false, error });

/** A feed address the server could fetch: http(s) only (no `javascript:`, `file:`, `data:`). */
function feedUrl(raw: string | null): string | undefined {
	const text = raw?.trim();
	if (!text) return undefined;
	try {
		const url = new URL(text);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
	} catch {
		return undefined;
	}
}

function outlineTitle(el: Element): string {
	return (el.getAttribute('title') ?? el.getAttribute('text') ?? '').trim();
}

/**
 * Reads an OPML file's text into the feeds it lists. Never throws: every problem comes back as
 * a sentence for the reader. `parser` is injectable for tests outside a browser.
 */
export function readOpml(text: string, parser: DOMParser = new DOMParser()): OpmlReadResult {
	if (new Blob([text]).size > MAX_OPML_BYTES) {
		return fail(m.settings_opml_too_large({ size: MAX_OPML_BYTES / 1024 / 1024 }));
	}
	if (text.trim() === '') return fail(m.settings_opml_empty());
	// OPML needs no DTD; entity declarations are how XML files attack their readers.
	if (/<!ENTITY/i.test(text)) {
		return fail(m.settings_opml_entities());
	}
	let doc: Document;
	try {
		doc = parser.parseFromString(text, 'application/xml');
	} catch {
		return fail(m.settings_opml_not_xml());
	}
	const root = doc.documentElement;
	if (!root || doc.getElementsByTagName('parsererror').length > 0) {
		return fail(m.settings_opml_damaged());
	}
	if (root.localName.toLowerCase() !== 'opml') {
		return fail(m.settings_opml_not_opml());
	}
	const body = Array.from(root.children).find((el) => el.localName.toLowerCase() === 'body');
	const head = Array.from(root.children).find((el) => el.localName.toLowerCase() === 'head');
	const title =
		Array.from(head?.children ?? [])
			.find((el) => el.localName.toLowerCase() === 'title')
			?.textContent?.trim() ?? '';
	if (!body) return fail(m.settings_opml_no_body());

	const feeds: OpmlFeed[] = [];
	const seen = new Set<string>();
	let tooMany = false;
	let tooDeep = false;
	const walk = (parent: Element, path: string[], depth: number): void => {
		if (depth > MAX_DEPTH) {
			tooDeep = true;
			return;
		}
		for (const el of Array.from(parent.children)) {
			if (el.localName.toLowerCase() !== 'outline') continue;
			const url = feedUrl(el.getAttribute('xmlUrl') ?? el.getAttribute('xmlurl'));
			if (url) {
				if (feeds.length >= MAX_OPML_FEEDS) {
					tooMany = true;
					return;
				}
				// The same feed listed twice (in two categories) is subscribed once, in the first.
				if (!seen.has(url)) {
					seen.add(url);
					feeds.push({ title: outlineTitle(el) || url, xmlUrl: url, categoryPath: path });
				}
			} else if (el.children.length > 0) {
				const name = outlineTitle(el);
				walk(el, name ? [...path, name] : path, depth + 1);
			}
			if (tooMany || tooDeep) return;
		}
	};
	walk(body, [], 0);
	if (tooMany) {
		return fail(m.settings_opml_too_many({ max: MAX_OPML_FEEDS }));
	}
	if (tooDeep) return fail(m.settings_opml_too_deep({ depth: MAX_DEPTH }));
	if (feeds.length === 0) {
		return fail(m.settings_opml_no_feeds());
	}
	return { ok: true, title, feeds };
}
