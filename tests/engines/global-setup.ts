/**
 * Builds the app once for the whole cross-engine run, into a directory of its own (not `build/`,
 * which Playwright's `vite preview` serves), and hands its path to the test files.
 */
import type { TestProject } from 'vitest/node';
import { buildApp, repoRoot } from '../e2e/support/build';

declare module 'vitest' {
	export interface ProvidedContext {
		buildDir: string;
	}
}

export default function setup(project: TestProject): void {
	// ENGINES_BUILD_DIR: test a build made elsewhere (e.g. while iterating on the tests alone).
	let outDir = process.env.ENGINES_BUILD_DIR;
	if (!outDir) {
		outDir = `${repoRoot}node_modules/.cache/engines/build`;
		buildApp({ outDir, version: 'engines' });
	}
	project.provide('buildDir', outDir);
}
