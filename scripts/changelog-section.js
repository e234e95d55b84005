// The CHANGELOG.md section of one version, without its heading: the notes the release workflow
// (.github/workflows/release.yml) attaches to a tag's release.
//
//   node scripts/changelog-section.js 1.0.0|v1.0.0 [CHANGELOG.md]
//
// Fails when the version has no section or an empty one: a release is not published without notes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A version heading of Keep a Changelog: `## [1.0.0] - 2026-12-07` or `## [Unreleased]`. */
const HEADING = /^## \[([^\]]+)\]/;
/** The link definitions that may close the file: `[1.0.0]: https://…`. */
const LINK = /^\[[^\]]+\]:\s/;

/**
 * @param {string} text the changelog
 * @param {string} version `1.0.0` or the tag `v1.0.0`
 * @returns {string} the section's body, trimmed, ending with a newline
 */
export function changelogSection(text, version) {
	const wanted = version.replace(/^v(?=\d)/, '');
	const lines = text.split(/\r?\n/);
	const start = lines.findIndex((line) => HEADING.exec(line)?.[1] === wanted);
	if (start < 0) throw new Error(`CHANGELOG: no section for ${wanted}`);
	const rest = lines.slice(start + 1);
	const end = rest.findIndex((line) => HEADING.test(line) || LINK.test(line));
	const body = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
	if (body === '') throw new Error(`CHANGELOG: the section for ${wanted} is empty`);
	return `${body}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [version, file = fileURLToPath(new URL('../CHANGELOG.md', import.meta.url))] =
		process.argv.slice(2);
	if (!version) {
		console.error('usage: node scripts/changelog-section.js <version> [CHANGELOG.md]');
		process.exit(2);
	}
	process.stdout.write(changelogSection(readFileSync(file, 'utf8'), version));
}
