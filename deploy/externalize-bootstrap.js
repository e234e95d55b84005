// SvelteKit writes a small inline <script> into every HTML page it generates (the fallback
// index.html included) to set its globals and import the entry chunks. A Content-Security-Policy
// header with `script-src 'self'` blocks it, and a hash of it would change with every build, so every
// server config would need regenerating on each deploy. Instead this step, run by the adapter after
// adapter-static has written the site, moves each inline script into a content-hashed file under
// `_app/immutable/` and points the page at it. The script relies on `document.currentScript`, which a
// classic (non-module) external script also has, so it runs unchanged.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;
// Anything still inline afterwards (a <script> without src, JSON data blocks excepted) fails the build.
const LEFTOVER_INLINE = /<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>/;

/** @param {string} dir */
async function htmlFiles(dir) {
	/** @type {string[]} */
	const found = [];
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory() && entry.name !== '_app') found.push(...(await htmlFiles(path)));
		else if (entry.isFile() && entry.name.endsWith('.html')) found.push(path);
	}
	return found;
}

/**
 * @param {{ dir: string, base: string, appDir: string }} options
 * @returns {Promise<string[]>} the written script paths, relative to `dir`
 */
export async function externalizeBootstrap({ dir, base, appDir }) {
	/** @type {string[]} */
	const written = [];
	for (const file of await htmlFiles(dir)) {
		const html = await readFile(file, 'utf8');
		/** @type {Promise<void>[]} */
		const writes = [];
		const rewritten = html.replace(INLINE_SCRIPT, (_match, /** @type {string} */ code) => {
			const hash = createHash('sha256').update(code).digest('base64url').slice(0, 12);
			const relative = `${appDir}/immutable/bootstrap.${hash}.js`;
			writes.push(writeFile(join(dir, relative), `${code.trim()}\n`));
			written.push(relative);
			return `<script src="${base}/${relative}"></script>`;
		});
		await Promise.all(writes);
		if (LEFTOVER_INLINE.test(rewritten)) {
			throw new Error(`externalize-bootstrap: ${file} still has an inline <script>`);
		}
		await writeFile(file, rewritten);
	}
	return written;
}

/**
 * Wraps an adapter so that its output has no inline scripts.
 * @param {import('@sveltejs/kit').Adapter} inner
 * @param {string} dir where `inner` writes the site (adapter-static's `pages`)
 * @returns {import('@sveltejs/kit').Adapter}
 */
export function withExternalBootstrap(inner, dir) {
	return {
		...inner,
		name: `${inner.name} + external bootstrap`,
		async adapt(builder) {
			await inner.adapt(builder);
			const written = await externalizeBootstrap({
				dir,
				base: builder.config.kit.paths.base,
				appDir: builder.config.kit.appDir
			});
			builder.log.minor(`Moved inline bootstrap into ${written.join(', ') || 'nothing'}`);
		}
	};
}
