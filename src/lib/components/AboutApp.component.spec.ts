/**
 * Settings → About (AboutApp.svelte) in jsdom: the version and the build it names are this build's
 * (package.json's version and the commit, fixed by vite.config.ts), and it links the licence and the
 * notices the build writes beside index.html, as documents outside the app's router.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import AboutApp from './AboutApp.svelte';
import { freshTarget, show } from '$support/mounted';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();

describe('AboutApp', () => {
	it('names the version, the build and the licence, and links both licence texts', () => {
		const target = freshTarget();
		show(AboutApp, target, {});
		const facts = [...target.querySelectorAll('dt')].map((dt) => [
			dt.textContent,
			dt.nextElementSibling?.textContent?.trim()
		]);
		expect(facts).toEqual([
			['Version', pkg.version],
			// The commit's first 12 digits; marked when the tree differs from it.
			['Build', expect.stringMatching(new RegExp(`^${head.slice(0, 12)}(-dirty)?$`))],
			['Licence', 'GNU General Public License, version 3 or later']
		]);
		const build = target.querySelector('[data-testid="about-build"]');
		expect(build?.getAttribute('title')).toMatch(new RegExp(`^${head}(-dirty)?$`));

		const links = [...target.querySelectorAll('a')].map((a) => ({
			text: a.textContent?.trim(),
			file: a.getAttribute('href')?.split('/').pop(),
			target: a.getAttribute('target')
		}));
		expect(links).toEqual([
			{
				text: 'GNU General Public License, version 3 or later',
				file: 'LICENSE.txt',
				target: '_blank'
			},
			{
				text: 'Licences of the software it includes',
				file: 'THIRD-PARTY-NOTICES.txt',
				target: '_blank'
			}
		]);
		expect(target.textContent).toContain('no warranty');
	});
});
