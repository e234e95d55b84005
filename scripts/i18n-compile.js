// The message compiler (docs/i18n.md): src/lib/i18n/catalogs/<locale>.json → one TypeScript module
// of message functions per locale in src/lib/i18n/generated/, plus the `Messages` interface they
// all implement (from English, the source). Only the active locale's module is loaded by the app
// (src/lib/i18n/locale.svelte.ts); nothing is parsed at run time.
//
// A catalog maps a key to either
// - a string with `{name}` variables: "Signed in as {user}", or
// - a plural: { "plural": "count", "one": "{count} article", "other": "{count} articles" }, with
//   exactly the forms Intl.PluralRules has for the locale (`{count}` is the number, formatted).
//
// Run: node scripts/i18n-compile.js  (the unit test i18n/catalogs.spec.ts fails when its output
// is stale).
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SOURCE_LOCALE = 'en';
export const I18N_DIR = join(dirname(fileURLToPath(import.meta.url)), '../src/lib/i18n');

/** @typedef {string | { plural: string } & Record<string, string>} Entry */
/** @typedef {Record<string, Entry>} Catalog */

/**
 * Messages of screens other than the first (Settings, the check-up, subscribe and share) and the
 * API errors' texts: a second module per locale, fetched once the first screen is painted
 * (hooks.client.ts) or when such a screen opens (locale.svelte.ts `loadAllMessages`, awaited in
 * those routes' `load`), so a start carries only the words its first screen says. An API error waits for them before it reaches the app (api/errors.ts
 * `failWithWords`); the service worker precaches the module, so offline too.
 */
const LATER_PREFIXES = [
	'settings_',
	'checkup_',
	'language_',
	'back_to_settings',
	'error_',
	'subscribe_',
	'share_',
	// Toasts: said after an action the reader took, once the first screen is up (each waits for
	// the module: locale.svelte.ts `loadAllMessages`).
	'toast_',
	// Screens loaded on demand that wait for the module with their code: the shortcut list
	// ((app)/+layout.svelte), the stuck-storage notice, the update prompt (routes/+layout.svelte);
	// the sign-in page's words (login/+page.ts awaits the module; the sign-in in place,
	// SignInAgain.svelte, waits for it with its code).
	'shortcuts_',
	'stuck_',
	'update_',
	'login_',
	// The same for the feed menu and its settings sheet (HeadlineToolbar.svelte), the image viewer
	// (ArticleView.svelte opens it once they are in) and the in-place sign-in (OfflineStatus.svelte).
	'feedmenu_',
	// The feed menu's and its sheet's health lines (format/feed-health.ts); the tree's warning
	// (`feed_error_`, format/feed-error.ts) stays first.
	'feed_health_',
	'viewer_',
	'renew_',
	// The article screen's words: its route awaits the module in its load
	// ([article]/+page.ts), and everything it draws (toolbar, pager, chips, attachments, the
	// player, read aloud, the note editor, the label picker) is its code. The selection bar
	// ([kind]/[id]/+layout.svelte) and a row's swipe hints (row-swipe.svelte.ts) say some of them
	// and wait for the module with their code.
	'article_',
	'player_',
	'speech_',
	'note_',
	'labels_',
	'selection_',
	'swipe_',
	// A dialog's Close and Cancel: every dialog belongs to a screen or menu loaded with the module.
	'dialog_',
	// The search form's own words (ListSearch.svelte, loaded with the module when first opened);
	// the search button and the scopes' names stay with the first screen.
	'search_clear',
	'search_field',
	'search_in',
	'search_placeholder',
	'search_submit',
	// Pull to refresh (PullToRefresh.svelte, loaded after the first screen with the module).
	'list_pull_refresh',
	'list_refreshing',
	'list_release_refresh',
	// A page's title: every route that has one awaits the module in its load.
	'page_title',
	// A new-article alert's and a rule's words: said after a sync, which waits for the module
	// (sync/run-sync.ts; the service worker has its own words, generated/worker.ts), and by the
	// alerts and rule pages, which await it in their load.
	'alert_',
	// The manifest's shortcut names: read at build time only (pwa/manifest.ts), never by a page.
	'manifest_'
];

/**
 * Keys of a later prefix that the first screen says all the same: a row's publication date, the
 * article pane's name in the list's layout, the article state's "gone" (state/article.svelte.ts),
 * and a full device's message.
 */
const START_KEYS = new Set([
	'article_published',
	'article_pane',
	'article_gone',
	// A full device's words (db/storage-problem.ts StorageFullError): made where the write fails,
	// at any time from the first sync on, and the worker says them too (its `error_` words).
	'error_storage_full'
]);

/** @param {string} key @returns {boolean} whether the key is in the later module */
export function isLater(key) {
	return !START_KEYS.has(key) && LATER_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/**
 * What the service worker says (a new-article alert, a replayed change's refusal): its words in
 * every language, in one module it imports statically (generated/worker.ts) — a worker is a classic
 * script and cannot import() a locale's module. Each language's words are made only when asked.
 */
const WORKER_PREFIXES = ['alert_', 'error_'];

/** @param {string} key @returns {boolean} whether the worker speaks the key */
export function isWorkers(key) {
	return WORKER_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/**
 * A pseudo-locale for layout tests (tests/e2e/i18n.spec.ts): English made ~40 % longer and
 * accented, so a label that clips or overlaps in a longer language shows in a test. Made from the
 * source here, never a catalog file; the app lists it in Settings only in development
 * (i18n/locale.svelte.ts `LANGUAGE_CHOICES`), and a test chooses it through the kept choice.
 */
export const PSEUDO_LOCALE = 'en-XA';

const ACCENTED = Object.fromEntries(
	[...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
		c,
		[...'áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÅƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŢÚṼŴẊÝŽ'][i]
	])
);
const PADDING = 'ļóŕéɱ ípšúɱ ðóļóŕ šíţ áɱéţ ';

/** @param {string} text @returns {string} the text accented, ~40 % longer, in brackets */
export function pseudoText(text) {
	const accented = text
		.split(/(\{[A-Za-z_][A-Za-z0-9_]*\})/)
		.map((part, i) => (i % 2 ? part : part.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c)))
		.join('');
	const visible = text.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, '').length;
	const length = Math.ceil(visible * 0.4);
	const padding = PADDING.repeat(Math.ceil(length / PADDING.length) + 1)
		.slice(0, length)
		.trim();
	return `[${accented}${padding ? ` ${padding}` : ''}]`;
}

/** @param {Catalog} source @returns {Catalog} the pseudo-locale's catalog */
export function pseudoCatalog(source) {
	return /** @type {Catalog} */ (
		Object.fromEntries(
			Object.entries(source).map(([key, entry]) => [
				key,
				typeof entry === 'string'
					? pseudoText(entry)
					: Object.fromEntries(
							Object.entries(entry).map(([form, text]) => [
								form,
								form === 'plural' ? text : pseudoText(text)
							])
						)
			])
		)
	);
}

const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** @param {string} text @returns {string[]} the variables a text names, sorted, once each */
export function variablesOf(text) {
	return [...new Set([...text.matchAll(VARIABLE)].map((match) => match[1] ?? ''))].sort();
}

/** @param {Entry} entry @returns {string[]} every variable of an entry, the plural's own included */
export function entryVariables(entry) {
	if (typeof entry === 'string') return variablesOf(entry);
	const names = new Set([entry.plural]);
	for (const [form, text] of Object.entries(entry)) {
		if (form !== 'plural') for (const name of variablesOf(text)) names.add(name);
	}
	return [...names].sort();
}

/** @param {Entry} entry @returns {string[]} the plural forms an entry gives (none for a string) */
export function pluralForms(entry) {
	return typeof entry === 'string' ? [] : Object.keys(entry).filter((k) => k !== 'plural');
}

/** @param {string} text a template literal's body, with `{name}` as `${p.name}` */
function template(text, numberVar = '') {
	const escaped = text
		.replace(/[\\`$]/g, (c) => `\\${c}`)
		// Spaces and marks a reader cannot see (no-break, narrow, direction marks) stay visible here.
		.replace(
			/[\u00a0\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/g,
			(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
		);
	return (
		'`' +
		escaped.replace(/\\\$|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) => {
			if (!name) return whole;
			return name === numberVar ? '${n}' : `\${p.${name}}`;
		}) +
		'`'
	);
}

/** @param {string} key @param {Entry} entry */
function functionOf(key, entry) {
	const vars = entryVariables(entry);
	const param = vars.length === 0 ? '()' : '(p)';
	if (typeof entry === 'string') return `\t${key}: ${param} => ${template(entry)},`;
	const cases = pluralForms(entry)
		.filter((form) => form !== 'other')
		.map(
			(form) =>
				`\t\t\tcase '${form}':\n\t\t\t\treturn ${template(entry[form] ?? '', entry.plural)};`
		);
	// The number, formatted, only where a form says it ("change is waiting" after a count shown apart).
	const saysNumber = pluralForms(entry).some((form) =>
		variablesOf(entry[form] ?? '').includes(entry.plural)
	);
	return [
		`\t${key}: ${param} => {`,
		...(saysNumber ? [`\t\tconst n = numbers.format(p.${entry.plural});`] : []),
		`\t\tswitch (plurals.select(p.${entry.plural})) {`,
		...cases,
		'\t\t\tdefault:',
		`\t\t\t\treturn ${template(entry.other ?? '', entry.plural)};`,
		'\t\t}',
		'\t},'
	].join('\n');
}

const HEADER =
	'// Generated by scripts/i18n-compile.js from src/lib/i18n/catalogs/ — do not edit.\n';

/**
 * @param {string} locale @param {Catalog} catalog @param {boolean} later which of the two modules
 * @returns {string} the locale's module
 */
export function compileLocale(locale, catalog, later = false) {
	const keys = Object.keys(catalog)
		.filter((key) => isLater(key) === later)
		.sort();
	const hasPlural = keys.some((key) => typeof catalog[key] !== 'string');
	return [
		HEADER,
		`import type { ${later ? 'LaterMessages' : 'StartMessages'} } from './messages';`,
		'',
		...(hasPlural
			? [
					`const plurals = new Intl.PluralRules('${locale}');`,
					`const numbers = new Intl.NumberFormat('${locale}');`,
					''
				]
			: []),
		`export const messages: ${later ? 'LaterMessages' : 'StartMessages'} = {`,
		...keys.map((key) => functionOf(key, /** @type {Entry} */ (catalog[key]))),
		'};',
		''
	].join('\n');
}

/**
 * @param {Record<string, Catalog>} catalogs @returns {string} the worker's words of each locale
 * but the source (the worker has all of the source's), each made on first use
 */
export function compileWorker(catalogs) {
	const locales = Object.keys(catalogs)
		.filter((l) => l !== SOURCE_LOCALE)
		.sort();
	return [
		HEADER,
		"import type { Locale } from './locales';",
		"import type { Messages } from './messages';",
		'',
		`type WorkerKey = Extract<keyof Messages, ${WORKER_PREFIXES.map((p) => `\`${p}\${string}\``).join(' | ')}>;`,
		'',
		`/** The words of the service worker (${WORKER_PREFIXES.join(', ')}) in each locale. */`,
		'export const WORKER_MESSAGES: Partial<Record<Locale, () => Pick<Messages, WorkerKey>>> = {',
		...locales.flatMap((locale) => {
			const catalog = /** @type {Catalog} */ (catalogs[locale]);
			const keys = Object.keys(catalog).filter(isWorkers).sort();
			const hasPlural = keys.some((key) => typeof catalog[key] !== 'string');
			return [
				`	'${locale}': () => {`,
				...(hasPlural
					? [
							`		const plurals = new Intl.PluralRules('${locale}');`,
							`		const numbers = new Intl.NumberFormat('${locale}');`
						]
					: []),
				'		return {',
				...keys.map((key) =>
					functionOf(key, /** @type {Entry} */ (catalog[key]))
						.split('\n')
						.map((line) => `\t\t${line}`)
						.join('\n')
				),
				'		};',
				'	},'
			];
		}),
		'};',
		''
	].join('\n');
}

/** @param {Catalog} source @returns {string} the `Messages` interface every locale implements */
export function compileInterface(source) {
	const lines = Object.keys(source)
		.sort()
		.map((key) => {
			const entry = /** @type {Entry} */ (source[key]);
			const text = typeof entry === 'string' ? entry : (entry.other ?? '');
			const vars = entryVariables(entry);
			const params = vars
				.map(
					(v) =>
						`${v}: ${typeof entry !== 'string' && v === entry.plural ? 'number' : 'string | number'}`
				)
				.join('; ');
			const doc = `\t/** ${text.replace(/\*\//g, '*\\/').replace(/\n/g, ' ')} */`;
			return `${doc}\n\t${key}: (${vars.length ? `p: { ${params} }` : ''}) => string;`;
		});
	const later = Object.keys(source)
		.filter(isLater)
		.sort()
		.map((key) => `'${key}'`);
	return [
		HEADER,
		'export interface Messages {',
		...lines,
		'}',
		'',
		'/** The keys of the second module of each locale (screens after the first). */',
		`export type LaterKey = ${later.join(' | ') || 'never'};`,
		'export type LaterMessages = Pick<Messages, LaterKey>;',
		'export type StartMessages = Omit<Messages, LaterKey>;',
		''
	].join('\n');
}

/** @param {string[]} locales @returns {string} the loaders, one dynamic import (one file) each */
export function compileLoaders(locales) {
	const sorted = [...locales].sort();
	return [
		HEADER,
		"import type { LaterMessages, StartMessages } from './messages';",
		'',
		`export const LOCALES = [${sorted.map((l) => `'${l}'`).join(', ')}] as const;`,
		'export type Locale = (typeof LOCALES)[number];',
		'',
		'/** Layout tests only (scripts/i18n-compile.js `pseudoText`): never offered to a reader. */',
		`export const PSEUDO_LOCALE = '${PSEUDO_LOCALE}';`,
		'',
		'/** Each locale in files of its own: only the active one is fetched. */',
		'export const LOADERS: Record<Locale, () => Promise<{ messages: StartMessages }>> = {',
		...sorted.map((l) => `\t'${l}': () => import('./${l}'),`),
		'};',
		'',
		'/** The words of screens after the first (Settings, the check-up). */',
		'export const LATER_LOADERS: Record<Locale, () => Promise<{ messages: LaterMessages }>> = {',
		...sorted.map((l) => `\t'${l}': () => import('./${l}.later'),`),
		'};',
		''
	].join('\n');
}

/** @returns {Record<string, Catalog>} every catalog, by locale */
export function readCatalogs(dir = join(I18N_DIR, 'catalogs')) {
	/** @type {Record<string, Catalog>} */
	const catalogs = {};
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
		catalogs[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(join(dir, file), 'utf8'));
	}
	return catalogs;
}

/**
 * @param {Record<string, Catalog>} written the catalog files, by locale
 * @returns {Record<string, string>} file name → text
 */
export function compileAll(written) {
	const source = written[SOURCE_LOCALE];
	if (!source) throw new Error(`i18n-compile: no ${SOURCE_LOCALE}.json`);
	const catalogs = { ...written, [PSEUDO_LOCALE]: pseudoCatalog(source) };
	/** @type {Record<string, string>} */
	const files = {
		'messages.ts': compileInterface(source),
		'locales.ts': compileLoaders(Object.keys(catalogs)),
		// The worker never speaks the pseudo-locale (a kept `en-XA` reads as English there).
		'worker.ts': compileWorker(written)
	};
	for (const [locale, catalog] of Object.entries(catalogs)) {
		files[`${locale}.ts`] = compileLocale(locale, catalog);
		files[`${locale}.later.ts`] = compileLocale(locale, catalog, true);
	}
	return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const out = join(I18N_DIR, 'generated');
	mkdirSync(out, { recursive: true });
	const files = compileAll(readCatalogs());
	for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
	console.log(`i18n-compile: ${Object.keys(files).length} files in ${out}`);
}
