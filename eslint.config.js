import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * The layers of src/lib (docs/architecture.md, design.md "Layers"): an import goes down or
 * sideways, never up. A folder may import its own layer and every layer with a lower number.
 * Routes and components sit on top and are not restricted; the service worker may import up to
 * the features, never state or components.
 */
const LAYERS = {
	// Leaves: network, sanitizing, formatting; perf names performance marks and loads modules lazily
	// (imports nothing).
	api: 0,
	content: 0,
	format: 0,
	// The message catalogs (src/lib/i18n): every layer speaks through them.
	i18n: 0,
	perf: 0,
	// A row's touch gestures (a state machine and its Svelte attachment): imports only svelte.
	gestures: 0,
	// The one trailing timer (settleTimer): imports nothing.
	timing: 0,
	db: 1,
	tree: 2,
	counters: 2,
	cache: 3,
	outbox: 3,
	search: 3,
	dedupe: 3,
	sync: 4,
	offline: 4,
	alerts: 4,
	mute: 4,
	rules: 4,
	opml: 4,
	checkup: 4,
	media: 4,
	boot: 4,
	pwa: 4,
	keyboard: 4,
	state: 5,
	components: 6
};
const SERVICE_WORKER_LAYER = 4;

/**
 * Every folder of src/lib with code has its layer: a new folder missing here would be held to no
 * rule at all, so the lint stops and says so (add it to LAYERS and to docs/architecture.md).
 */
const unplaced = readdirSync(new URL('./src/lib', import.meta.url), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && !(entry.name in LAYERS))
	.filter((entry) =>
		readdirSync(new URL(`./src/lib/${entry.name}`, import.meta.url), { recursive: true }).some(
			(file) => /\.(ts|js|svelte)$/.test(String(file))
		)
	)
	.map((entry) => entry.name);
if (unplaced.length > 0) {
	throw new Error(
		`src/lib folders without a layer: ${unplaced.join(', ')}. Add each to LAYERS in eslint.config.js and to docs/architecture.md (Layers).`
	);
}

/**
 * Upward imports the tree still has, each a known debt (issue 25): the importing file and the
 * module it may import (relative to src/lib). The rule lets exactly these through and fails on
 * any other upward import; remove an entry when its import goes.
 */
/** @type {[file: string, module: string][]} */
const KNOWN_UPWARD = [];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The no-restricted-imports rule for a file of `layer`, letting through `allowed` modules. */
function layerRule(layer, allowed = []) {
	const above = Object.keys(LAYERS).filter((folder) => LAYERS[folder] > layer);
	if (above.length === 0) return 'off';
	// `$lib/<folder>…` or `../<folder>…` (any depth); an allowed module is left out.
	const except = allowed.length
		? `(?!(?:\\$lib/|(?:\\.\\./)+)(?:${allowed.map(escape).join('|')})(?:\\.(?:js|ts))?$)`
		: '';
	return [
		'error',
		{
			patterns: [
				{
					regex: `^${except}(?:\\$lib/|(?:\\.\\./)+)(?:${above.join('|')})(?:/.*)?$`,
					message: `An import goes down the layers (docs/architecture.md): this module is in a higher layer. If it must stay for now, list it in KNOWN_UPWARD (eslint.config.js).`
				}
			]
		}
	];
}

const TESTS = ['**/*.spec.ts', '**/testing/**'];

const layerConfigs = [
	...Object.entries(LAYERS).map(([folder, layer]) => ({
		files: [`src/lib/${folder}/**/*.{ts,js,svelte}`],
		ignores: TESTS,
		rules: { 'no-restricted-imports': layerRule(layer) }
	})),
	{
		files: ['src/service-worker/**/*.ts', 'src/service-worker.ts'],
		ignores: TESTS,
		rules: { 'no-restricted-imports': layerRule(SERVICE_WORKER_LAYER) }
	},
	...[...new Set(KNOWN_UPWARD.map(([file]) => file))].map((file) => ({
		files: [file],
		rules: {
			'no-restricted-imports': layerRule(
				LAYERS[file.split('/')[2]],
				KNOWN_UPWARD.filter(([f]) => f === file).map(([, target]) => target)
			)
		}
	}))
];

/**
 * An IndexedDB transaction outside db/ goes through its helpers (db/tx.ts: readTx, writeTx,
 * writeTxWithRoom), so that the abort on a failure, the full-quota retry and the handled `done`
 * are written once. Single requests (db.get, db.put…) are transactions of their own and stay.
 */
const throughDbTx = {
	selector: "CallExpression[callee.property.name='transaction']",
	message:
		'Open IndexedDB transactions through $lib/db/tx (readTx, writeTx, writeTxWithRoom), not db.transaction().'
};
/**
 * db/ is the only door to IndexedDB (docs/architecture.md, "One storage door"): outside it no
 * module opens the reader's database or holds a connection, and none names a store in a request
 * of its own. Other folders read and write through db/stores.ts (named reads; `readStores`,
 * `writeStores` for a transaction, whose body gets the stores' handles), db/quota.ts
 * `writeStoresWithRoom` (the same, with the full-quota retry) and db/kv.ts (the key-value stores). Specs and test support are exempt: they set up and inspect the
 * stored state itself.
 */
const STORE_NAMES = 'settings|session|tree|lists|articles|outbox|failed|search|sync|media';
const THROUGH_STORES =
	'Outside db/, IndexedDB is reached through $lib/db/stores (named reads, readStores / writeStores) or $lib/db/kv, never a connection of its own.';
const oneStorageDoor = [
	{
		selector: 'ImportSpecifier[imported.name=/^(openReaderDb|readTx|writeTx|writeTxWithRoom)$/]',
		message: THROUGH_STORES
	},
	{
		selector: "CallExpression[callee.property.name='objectStore']",
		message: THROUGH_STORES
	},
	{
		selector: `CallExpression[callee.object.name=/^(db|database)$/][arguments.0.value=/^(${STORE_NAMES})$/]`,
		message: THROUGH_STORES
	}
];
const transactionsThroughDb = {
	files: ['src/**/*.{ts,js,svelte}'],
	ignores: [...TESTS, 'src/lib/db/**'],
	rules: { 'no-restricted-syntax': ['error', throughDbTx, ...oneStorageDoor] }
};

/**
 * Screens reach the server through the state layer (docs/architecture.md), never the session's
 * API client itself: neither a call on it nor handing it to a feature. Reading what the server can
 * do (`session.client.capabilities`) stays. The same rule's list as above, so neither drops the other.
 */
const SCREENS_SKIP_STATE = 'Screens call the state layer (src/lib/state), not the API client.';
const screensThroughState = {
	files: ['src/routes/**/*.{ts,svelte}', 'src/lib/components/**/*.{ts,svelte}'],
	ignores: TESTS,
	rules: {
		'no-restricted-syntax': [
			'error',
			throughDbTx,
			...oneStorageDoor,
			{
				selector:
					"MemberExpression[object.object.name='session'][object.property.name='client'][property.name!='capabilities']",
				message: SCREENS_SKIP_STATE
			},
			{
				selector:
					":not(MemberExpression) > MemberExpression[object.name='session'][property.name='client']",
				message: SCREENS_SKIP_STATE
			}
		]
	}
};

export default ts.config(
	{
		ignores: [
			'build/',
			'.svelte-kit/',
			'node_modules/',
			'test-results/',
			'playwright-report/',
			'testbed/fixtures/'
		]
	},
	js.configs.recommended,
	...ts.configs.recommendedTypeChecked,
	...svelte.configs.recommended,
	prettier,
	...svelte.configs.prettier,
	{
		languageOptions: {
			globals: { ...globals.browser, ...globals.node },
			parserOptions: {
				projectService: true,
				extraFileExtensions: ['.svelte'],
				tsconfigRootDir: import.meta.dirname
			}
		},
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-misused-promises': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }]
		}
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			parserOptions: {
				parser: ts.parser,
				svelteConfig
			}
		}
	},
	{
		files: ['**/*.js', '**/*.cjs'],
		...ts.configs.disableTypeChecked
	},
	...layerConfigs,
	transactionsThroughDb,
	screensThroughState
);
