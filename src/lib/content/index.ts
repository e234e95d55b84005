/** Article content: the only way feed HTML reaches the DOM. See docs/content-safety.md. */
export { safeColor } from './color';
export { IFRAME_SANDBOX, LINK_REL, NAMED_PROPS_PREFIX } from './sanitize-policy';
export { sanitizeArticle, sanitizeArticleToString, type SanitizeOptions } from './sanitize';
export { safeUrl, type UrlKind } from './url';
