// The first screen's JavaScript, gzip level 9, read from a build (default build/): the modules
// index.html preloads (deploy/preload-first-screen.js lists the first screen's) and, given a
// locale, that locale's message module (fetched at start by hooks.client.ts). The browser-side
// figure (what a start really loaded) is bench/run.js's item 4; this one needs no server.
// Run: node scripts/first-screen-js.js [buildDir] [locale]
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? 'build';
const locale = process.argv[3];
const html = readFileSync(join(dir, 'index.html'), 'utf8');
const files = new Set(
	[...html.matchAll(/(?:href|src)="([^"]+\.js)"|import\("([^"]+\.js)"\)/g)].map((m) =>
		(m[1] ?? m[2] ?? '').replace(/^\.?\//, '')
	)
);
if (locale) {
	const manifest = JSON.parse(
		readFileSync('.svelte-kit/output/client/.vite/manifest.json', 'utf8')
	);
	const chunk = manifest[`src/lib/i18n/generated/${locale}.ts`];
	if (!chunk) throw new Error(`no chunk for locale ${locale}`);
	files.add(chunk.file);
}
let raw = 0;
let gzip = 0;
for (const f of files) {
	const path = join(dir, f);
	if (!existsSync(path)) throw new Error(`missing ${path}`);
	const buf = readFileSync(path);
	raw += buf.length;
	gzip += gzipSync(buf, { level: 9 }).length;
}
console.log(
	`first-screen JS${locale ? ` (${locale})` : ''}: ${files.size} files, ${(gzip / 1024).toFixed(1)} KB gzip, ${(raw / 1024).toFixed(1)} KB raw`
);
