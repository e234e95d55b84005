/**
 * What an article's body may keep (content/sanitize.ts applies it): the tags and attributes
 * allowed, the tags dropped with everything inside them, DOMPurify's settings, and the values the
 * sanitizer gives the elements it keeps (an iframe's sandbox, a link's rel).
 */
import type { Config } from 'dompurify';

/** The only sandbox an embedded frame ever gets: scripts in an opaque origin, popups allowed. */
export const IFRAME_SANDBOX = 'allow-scripts allow-popups';
/** The rel every outgoing link gets. */
export const LINK_REL = 'noopener noreferrer';
/** Prefix DOMPurify (SANITIZE_NAMED_PROPS) gives ids and names; fragment links get it too. */
export const NAMED_PROPS_PREFIX = 'user-content-';

const ALLOWED_TAGS = [
	// text
	'a',
	'abbr',
	'address',
	'article',
	'aside',
	'b',
	'bdi',
	'bdo',
	'blockquote',
	'br',
	'center',
	'cite',
	'code',
	'data',
	'dd',
	'del',
	'details',
	'dfn',
	'div',
	'dl',
	'dt',
	'em',
	'figcaption',
	'figure',
	'footer',
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'header',
	'hgroup',
	'hr',
	'i',
	'ins',
	'kbd',
	'li',
	'mark',
	'ol',
	'p',
	'pre',
	'q',
	'rp',
	'rt',
	'ruby',
	's',
	'samp',
	'section',
	'small',
	'span',
	'strike',
	'strong',
	'sub',
	'summary',
	'sup',
	'time',
	'tt',
	'u',
	'ul',
	'var',
	'wbr',
	// tables
	'caption',
	'col',
	'colgroup',
	'table',
	'tbody',
	'td',
	'tfoot',
	'th',
	'thead',
	'tr',
	// media and embeds
	'audio',
	'iframe',
	'img',
	'picture',
	'source',
	'track',
	'video'
];

const ALLOWED_ATTR = [
	'alt',
	'title',
	'lang',
	'dir',
	'id',
	'name',
	'href',
	'hreflang',
	'src',
	'srcset',
	'sizes',
	'media',
	'type',
	'width',
	'height',
	'poster',
	'controls',
	'loop',
	'muted',
	'playsinline',
	'kind',
	'label',
	'srclang',
	'default',
	'allowfullscreen',
	'open',
	'datetime',
	'value',
	'start',
	'reversed',
	'colspan',
	'rowspan',
	'headers',
	'scope',
	'abbr',
	'span'
];

/** Removed together with everything inside them (DOMPurify keeps the text of other dropped tags). */
const FORBID_CONTENTS = [
	'script',
	'style',
	'template',
	'noscript',
	'noembed',
	'noframes',
	'xmp',
	'plaintext',
	'title',
	'head',
	'svg',
	'math',
	'object',
	'embed',
	'applet',
	'frameset',
	'frame',
	'iframe',
	'select',
	'textarea',
	'option',
	'datalist',
	'button',
	'input',
	'canvas'
];

/** What DOMPurify keeps of a body that may hold sandboxed iframes. */
export const BASE_CONFIG = {
	ALLOWED_TAGS,
	ALLOWED_ATTR,
	FORBID_CONTENTS,
	ALLOW_DATA_ATTR: false,
	ALLOW_ARIA_ATTR: false,
	ALLOW_UNKNOWN_PROTOCOLS: false,
	ALLOW_SELF_CLOSE_IN_ATTR: false,
	SAFE_FOR_TEMPLATES: false,
	SAFE_FOR_XML: true,
	SANITIZE_DOM: true,
	SANITIZE_NAMED_PROPS: true,
	KEEP_CONTENT: true,
	FORCE_BODY: true,
	WHOLE_DOCUMENT: false,
	RETURN_DOM_FRAGMENT: true
} satisfies Config;

/** The same, for a body whose server was not told `has_sandbox`: no iframe survives. */
export const WITHOUT_IFRAMES = {
	...BASE_CONFIG,
	ALLOWED_TAGS: ALLOWED_TAGS.filter((t) => t !== 'iframe')
} satisfies Config;
