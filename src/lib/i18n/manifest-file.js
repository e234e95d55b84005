// The web app manifest's file name for a language: the source language's is the one every
// deployment has always served (`manifest.webmanifest`); each other language's sits beside it,
// `manifest.<locale>.webmanifest`, written at build time from its catalog
// (src/routes/manifest.[locale].webmanifest). One rule for the page's link (locale.svelte.ts),
// the build's routes, the portable build (deploy/portable.js) and the server configurations
// (deploy/generate.js). Plain JavaScript so that the deploy scripts can import it.

/** The source language's manifest, and the name servers and tests have always known. */
export const MANIFEST_FILE = 'manifest.webmanifest';

/** Matches every manifest file the build writes (the source language's and the others'). */
export const MANIFEST_FILE_PATTERN =
	/^manifest(?:\.[A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*)?\.webmanifest$/;

/**
 * @param {string} locale a catalog's locale (`de`, `pt-BR`)
 * @param {string} [source] the source language, whose manifest is `manifest.webmanifest`
 * @returns {string} the file name of that language's manifest, beside index.html
 */
export function manifestFile(locale, source = 'en') {
	return locale === source ? MANIFEST_FILE : `manifest.${locale}.webmanifest`;
}
