// Readability's own DOM parser (the one Firefox's Reader View uses off the main thread): a plain
// script with no types of its own. It builds a DOM-like tree from a string and runs nothing.
declare module '@mozilla/readability/JSDOMParser.js' {
	class JSDOMParser {
		parse(html: string, url?: string): Document;
	}
	export default JSDOMParser;
}
