// The import graph's loops, the check `npm run lint` runs (docs/architecture.md, "Layers").
//
//   node scripts/import-cycles.js [repo]
//
// The layer rule (eslint.config.js) lets a folder import its own layer, so a loop between folders
// of one layer, or between files of one folder, passes it; this finds both:
// - file cycles: strongly connected groups of two or more files of src/ (lib, routes, the worker)
//   and a file importing itself; such a loop works only while no module reads another's export
//   before it has run (a hoisted function declaration hid one: db/keys → kv → open → migrations);
// - folder loops: strongly connected groups of src/lib folders.
// It prints the counts (folders, folder edges, files, file edges, file cycles, folder loops) and
// each loop, and exits 1 on any.
//
// What is an edge: a runtime import, that is `import … from`, a bare `import '…'`, `export … from`
// and a dynamic `import('…')` of a module of src/ ($lib/…, ./…, ../…). A lazy import() does not
// run at load time, but a loop through one is still a loop in the code's structure, so it counts.
// Type-only imports (`import type`, `export type … from`) are erased before the code runs and do
// not count; an import whose every name is marked `type` (`import { type A }`) stays as a bare
// import under `verbatimModuleSyntax` (SvelteKit's tsconfig), so it counts. Specs and test support
// (`*.spec.ts`, `testing/` folders, `testing.ts` files) are left out: a test may assemble layers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The runtime import specifiers of one module's text (TypeScript or a Svelte component).
 * @param {string} text
 * @param {string} fileName
 * @returns {string[]}
 */
export function runtimeImports(text, fileName) {
	const scripts = fileName.endsWith('.svelte')
		? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1])
		: [text];
	/** @type {string[]} */
	const specifiers = [];
	/** @param {ts.Expression | undefined} node */
	const literal = (node) => (node && ts.isStringLiteralLike(node) ? [node.text] : []);
	for (const script of scripts) {
		const source = ts.createSourceFile(fileName, script ?? '', ts.ScriptTarget.Latest, false);
		/** @param {ts.Node} node */
		const visit = (node) => {
			if (ts.isImportDeclaration(node)) {
				if (!node.importClause?.isTypeOnly) specifiers.push(...literal(node.moduleSpecifier));
			} else if (ts.isExportDeclaration(node)) {
				if (!node.isTypeOnly) specifiers.push(...literal(node.moduleSpecifier));
			} else if (
				ts.isCallExpression(node) &&
				node.expression.kind === ts.SyntaxKind.ImportKeyword
			) {
				specifiers.push(...literal(node.arguments[0]));
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return specifiers;
}

/**
 * Strongly connected components (Tarjan's, without recursion), each sorted; only those of two or
 * more nodes, or of one node with an edge to itself: the loops.
 * @param {Map<string, Set<string>>} graph
 * @returns {string[][]}
 */
export function loopsOf(graph) {
	/** @type {Map<string, number>} */
	const index = new Map();
	/** @type {Map<string, number>} */
	const low = new Map();
	/** @type {Set<string>} */
	const onStack = new Set();
	/** @type {string[]} */
	const stack = [];
	/** @type {string[][]} */
	const loops = [];
	let counter = 0;
	const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((to) => [...to])])];
	/** @param {string} node */
	const next = (node) => [...(graph.get(node) ?? [])].sort()[Symbol.iterator]();
	/** @param {string} node */
	const enter = (node) => {
		index.set(node, counter);
		low.set(node, counter++);
		stack.push(node);
		onStack.add(node);
	};
	for (const root of nodes.sort()) {
		if (index.has(root)) continue;
		enter(root);
		/** @type {[string, Iterator<string>][]} */
		const work = [[root, next(root)]];
		while (work.length > 0) {
			const [node, edges] = /** @type {[string, Iterator<string>]} */ (work[work.length - 1]);
			const step = edges.next();
			if (!step.done) {
				const to = step.value;
				if (!index.has(to)) {
					enter(to);
					work.push([to, next(to)]);
				} else if (onStack.has(to)) {
					low.set(node, Math.min(Number(low.get(node)), Number(index.get(to))));
				}
				continue;
			}
			work.pop();
			if (work.length > 0) {
				const parent = /** @type {[string, Iterator<string>]} */ (work[work.length - 1])[0];
				low.set(parent, Math.min(Number(low.get(parent)), Number(low.get(node))));
			}
			if (low.get(node) !== index.get(node)) continue;
			/** @type {string[]} */
			const group = [];
			/** @type {string | undefined} */
			let member;
			do {
				member = /** @type {string} */ (stack.pop());
				onStack.delete(member);
				group.push(member);
			} while (member !== node);
			if (group.length > 1 || graph.get(node)?.has(node)) loops.push(group.sort());
		}
	}
	return loops;
}

const SOURCE = /\.(ts|js|svelte)$/;
/** @param {string} path */
const isTestSupport = (path) =>
	/\.spec\.ts$/.test(path) ||
	/\.d\.ts$/.test(path) ||
	path.split(sep).includes('testing') ||
	/(^|[/\\])testing\.ts$/.test(path);

/** @param {string} folder */
function sourceFiles(folder) {
	return readdirSync(folder, { recursive: true })
		.map(String)
		.filter((path) => SOURCE.test(path))
		.map((path) => join(folder, path))
		.filter((path) => !isTestSupport(path) && statSync(path).isFile());
}

/**
 * The file a specifier names, or undefined when it is not a module of src/.
 * @param {string} repo
 * @param {string} from
 * @param {string} specifier
 */
function resolveImport(repo, from, specifier) {
	let target;
	if (specifier === '$lib' || specifier.startsWith('$lib/')) {
		target = join(repo, 'src', 'lib', specifier.slice('$lib'.length));
	} else if (specifier.startsWith('.')) {
		target = resolve(dirname(from), specifier);
	} else {
		return undefined;
	}
	const stem = target.replace(/\.js$/, '');
	const candidates = [
		target,
		`${stem}.ts`,
		`${stem}.svelte.ts`,
		`${stem}.js`,
		join(target, 'index.ts')
	];
	return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/**
 * The file graph of src/ and the folder graph of src/lib.
 * @param {string} repo
 */
export function importGraphs(repo) {
	const src = join(repo, 'src');
	const lib = join(src, 'lib');
	/** @type {Map<string, Set<string>>} */
	const files = new Map();
	/** @type {Map<string, Set<string>>} */
	const folders = new Map();
	/** @param {string} path */
	const folderOf = (path) => {
		const parts = relative(lib, path).split(sep);
		return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
	};
	for (const name of readdirSync(lib, { withFileTypes: true })) {
		if (name.isDirectory() && sourceFiles(join(lib, name.name)).length > 0) {
			folders.set(name.name, new Set());
		}
	}
	for (const file of sourceFiles(src)) {
		const to = new Set();
		for (const specifier of runtimeImports(readFileSync(file, 'utf8'), file)) {
			const target = resolveImport(repo, file, specifier);
			if (!target || isTestSupport(target)) continue;
			to.add(relative(repo, target));
			const [a, b] = [folderOf(file), folderOf(target)];
			if (a && b && a !== b) folders.get(a)?.add(b);
		}
		files.set(relative(repo, file), to);
	}
	return { files, folders };
}

/** @param {Map<string, Set<string>>} graph */
const count = (graph) => [...graph.values()].reduce((sum, to) => sum + to.size, 0);

/**
 * The report's lines and whether the tree is free of loops.
 * @param {string} repo
 */
export function report(repo) {
	const { files, folders } = importGraphs(repo);
	const fileCycles = loopsOf(files);
	const folderLoops = loopsOf(folders);
	const lines = [
		...fileCycles.map((cycle) => `file cycle (${cycle.length} files): ${cycle.join(' ')}`),
		...folderLoops.map((loop) => `folder loop (${loop.length} folders): ${loop.join(' ')}`),
		`import cycles: ${folders.size} folders, ${count(folders)} folder edges, ${files.size} files, ${count(files)} file edges; file cycles: ${fileCycles.length}, folder loops: ${folderLoops.length}`
	];
	return { lines, ok: fileCycles.length === 0 && folderLoops.length === 0 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const repo = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
	const { lines, ok } = report(repo);
	for (const line of lines) console.log(line);
	process.exit(ok ? 0 : 1);
}
