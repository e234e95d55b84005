import { expect, test } from './support/fixtures';
import { resetTestbed, testbed } from '../support/testbed';
import { seriousA11yViolations } from './reader-support';

test.beforeAll(() => {
	resetTestbed();
});

// A reader whose browser prefers German: the app starts in German, with no setting made.
test.use({ locale: 'de-DE' });

test('speaks the browser language, and switches to Arabic (right to left) without a reload', async ({
	page
}) => {
	await page.goto('/login');
	const html = page.locator('html');
	await expect(html).toHaveAttribute('lang', 'de');
	await expect(html).toHaveAttribute('dir', 'ltr');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bei Tiny Tiny RSS anmelden');
	await expect(page).toHaveTitle('Anmelden · Reader');
	expect(await seriousA11yViolations(page), 'login, German').toEqual([]);

	// A failed sign-in says why in German too (the API error's words come from the catalog).
	await page.getByRole('textbox', { name: 'Benutzername' }).fill(testbed.user);
	await page.getByLabel('Passwort', { exact: true }).fill('not-the-password');
	await page.getByRole('button', { name: 'Anmelden' }).click();
	await expect(page.getByRole('alert')).toContainText(
		'Benutzername oder Passwort wurden nicht akzeptiert'
	);

	await page.getByLabel('Passwort', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Anmelden' }).click();
	await expect(page.locator('nav[aria-label="Feeds"]').getByRole('link').first()).toBeVisible();

	await page.goto('/settings');
	await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible();
	await expect(page.getByRole('radio', { name: 'Dunkel' })).toBeVisible();
	const language = page.getByRole('combobox', { name: 'Sprache' });
	await expect(language).toHaveValue('browser');
	expect(await seriousA11yViolations(page), 'settings, German').toEqual([]);

	// The same document before and after the change: nothing reloads.
	await page.evaluate(() => {
		(window as unknown as { sameDocument: boolean }).sameDocument = true;
	});
	await language.selectOption('ar');
	await expect(html).toHaveAttribute('dir', 'rtl');
	await expect(html).toHaveAttribute('lang', 'ar');
	await expect(page.getByRole('heading', { level: 1, name: 'الإعدادات' })).toBeVisible();
	await expect(page.getByRole('radio', { name: 'داكن' })).toBeVisible();
	await expect(page).toHaveTitle('الإعدادات · القارئ');
	expect(
		await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)
	).toBe(true);
	expect(await seriousA11yViolations(page), 'settings, Arabic').toEqual([]);

	// Kept on this device: a new start speaks Arabic although the browser prefers German.
	await page.reload();
	await expect(page.getByRole('heading', { level: 1, name: 'الإعدادات' })).toBeVisible();
	await expect(page.getByRole('combobox', { name: 'اللغة' })).toHaveValue('ar');

	// Back to the browser's language.
	await page.getByRole('combobox', { name: 'اللغة' }).selectOption('browser');
	await expect(html).toHaveAttribute('dir', 'ltr');
	await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible();
});
