/**
 * Builds the app into its own directory (not `build/`, which `vite preview` is serving), for tests
 * that need another version or another base path. About 6 s per build. SvelteKit's working directory
 * is private to the build too (under node_modules/.cache, so packages still resolve), so a build
 * running at the same time in the same tree cannot collide with it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export function buildApp(options: { outDir: string; base?: string; version: string }): string {
	const id = createHash('sha256').update(options.outDir).digest('hex').slice(0, 12);
	const work = `node_modules/.cache/pwa-e2e/${id}`;
	try {
		execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], {
			cwd: repoRoot,
			stdio: 'pipe',
			env: {
				...process.env,
				BUILD_DIR: options.outDir,
				BASE_PATH: options.base ?? '',
				APP_VERSION: options.version,
				SVELTEKIT_OUT_DIR: work,
				// A production build whoever calls: under Vitest NODE_ENV is `test`, and Vite then builds
				// with `dev` true, where the app never registers its service worker.
				NODE_ENV: 'production'
			}
		});
	} finally {
		rmSync(`${repoRoot}${work}`, { recursive: true, force: true });
	}
	return options.outDir;
}
