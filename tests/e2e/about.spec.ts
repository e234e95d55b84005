/**
 * Settings → About (issue 56): reached from Settings, it names this build's version and commit and
 * links the licence and the bundled packages' notices, which the app serves as plain text.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import { seriousA11yViolations, signIn } from './reader-support';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();

test('About names the version and the build and serves the licence and the notices', async ({
	page,
	request
}) => {
	await signIn(page);
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('link', { name: 'Version, licence and notices' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'About' })).toBeVisible();
	await expect(page).toHaveTitle(/About/);

	await expect(page.getByTestId('about-version')).toHaveText(pkg.version);
	// The build of the tree under test: its commit, marked when files differ from it.
	await expect(page.getByTestId('about-build')).toHaveText(
		new RegExp(`^${head.slice(0, 12)}(-dirty)?$`)
	);

	const licence = page.getByRole('link', {
		name: 'GNU General Public License, version 3 or later'
	});
	const notices = page.getByRole('link', { name: 'Licences of the software it includes' });
	const fetchText = async (href: string | null) => {
		const reply = await request.get(new URL(href ?? '', page.url()).href);
		expect(reply.status()).toBe(200);
		expect(reply.headers()['content-type']).toMatch(/^text\/plain/);
		return reply.text();
	};
	expect(await fetchText(await licence.getAttribute('href'))).toBe(readFileSync('LICENSE', 'utf8'));
	const text = await fetchText(await notices.getAttribute('href'));
	for (const name of ['@sveltejs/kit', 'dompurify', 'idb', 'svelte', 'workbox-window']) {
		expect(text).toMatch(new RegExp(`^  ${name}@\\d`, 'm'));
	}

	// It opens as a document of its own, beside the app, not as one of the app's screens.
	const [opened] = await Promise.all([page.waitForEvent('popup'), notices.click()]);
	await expect(opened.locator('body')).toContainText('dompurify');
	await opened.close();

	expect(await seriousA11yViolations(page)).toEqual([]);
});
