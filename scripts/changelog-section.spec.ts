import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changelogSection } from './changelog-section.js';

const SAMPLE = `# Changelog

Intro.

## [Unreleased]

### Added

- Something coming.

## [1.1.0] - 2027-01-10

### Fixed

- A fix.

## [1.0.0-beta] - 2026-11-01

- Beta.

## [1.0.0] - 2026-12-07

### Added

- Everything.

## [0.9.0] - 2026-10-01

[1.1.0]: https://example.org/compare/v1.0.0...v1.1.0
[1.0.0]: https://example.org/releases/tag/v1.0.0
`;

describe('changelogSection', () => {
	it("gives a version's body up to the next version, without its heading", () => {
		expect(changelogSection(SAMPLE, '1.1.0')).toBe('### Fixed\n\n- A fix.\n');
		expect(changelogSection(SAMPLE, 'Unreleased')).toBe('### Added\n\n- Something coming.\n');
	});

	it('takes the tag, and never a version that only starts the same', () => {
		expect(changelogSection(SAMPLE, 'v1.0.0')).toBe('### Added\n\n- Everything.\n');
		expect(changelogSection(SAMPLE, '1.0.0-beta')).toBe('- Beta.\n');
	});

	it('stops at the link definitions that close the file', () => {
		const last = SAMPLE.replace('## [0.9.0] - 2026-10-01\n\n', '');
		expect(changelogSection(last, '1.0.0')).toBe('### Added\n\n- Everything.\n');
	});

	it('refuses a version without a section, or with an empty one', () => {
		expect(() => changelogSection(SAMPLE, '2.0.0')).toThrow(/no section for 2\.0\.0/);
		expect(() => changelogSection(SAMPLE, '0.9.0')).toThrow(/section for 0\.9\.0 is empty/);
	});

	it("has notes for package.json's version in the real changelog, printed by the command", () => {
		const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
		const notes = execFileSync('node', ['scripts/changelog-section.js', `v${version}`], {
			encoding: 'utf8'
		});
		expect(notes).toBe(changelogSection(readFileSync('CHANGELOG.md', 'utf8'), version));
		expect(notes).toMatch(/^### Added$/m);
		expect(notes).not.toMatch(/^## /m);
	});
});
