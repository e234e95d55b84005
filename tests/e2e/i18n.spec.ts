import type { Page } from '@playwright/test';
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
	// Installing the app names it in German: the page links the German manifest.
	const manifestLink = page.locator('link[rel="manifest"]');
	await expect(manifestLink).toHaveAttribute('href', /\/manifest\.de\.webmanifest$/);
	const manifest = (await (
		await page.request.get((await manifestLink.getAttribute('href')) ?? '')
	).json()) as { lang: string; description: string; start_url: string };
	expect(manifest).toMatchObject({
		lang: 'de',
		description: 'Lies deine Tiny-Tiny-RSS-Feeds, online oder offline.',
		start_url: '/'
	});

	await page.getByRole('textbox', { name: 'Benutzername' }).fill(testbed.user);
	await page.getByLabel('Passwort', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Anmelden' }).click();
	await expect(page.locator('nav[aria-label="Feeds"]').getByRole('link').first()).toBeVisible();
	// The app's header and the feed list speak German too.
	await expect(page.getByRole('link', { name: 'Einen Feed abonnieren' })).toBeVisible();
	await expect(page.getByRole('heading', { level: 2, name: 'Kategorien' })).toBeVisible();

	await page.goto('/settings');
	await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible();
	await expect(page.getByRole('radio', { name: 'Dunkel' })).toBeVisible();
	await expect(page.getByRole('group', { name: 'Offline-Speicher' })).toBeVisible();
	await expect(page.getByRole('combobox', { name: 'Nach links wischen' })).toBeVisible();
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
	await expect(manifestLink).toHaveAttribute('href', /\/manifest\.ar\.webmanifest$/);
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
	await expect(manifestLink).toHaveAttribute('href', /\/manifest\.de\.webmanifest$/);
});

test.describe('a reader whose browser prefers Russian', () => {
	test.use({ locale: 'ru-RU' });

	test('reads the storage page in Russian, and the worker is told the language', async ({
		page
	}) => {
		await page.goto('/login');
		await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
		await page.getByRole('textbox', { name: 'Имя пользователя' }).fill(testbed.user);
		await page.getByLabel('Пароль', { exact: true }).fill(testbed.password);
		await page.getByRole('button', { name: 'Войти' }).click();
		await expect(
			page.getByRole('navigation', { name: 'Ленты' }).getByRole('link').first()
		).toBeVisible();
		// The connection status of the first screen speaks Russian too.
		await expect(page.getByTestId('last-updated')).toContainText('Обновлено');

		await page.goto('/settings/storage');
		await expect(
			page.getByRole('heading', { level: 1, name: 'Хранилище на этом устройстве' })
		).toBeVisible();
		await expect(page).toHaveTitle('Хранилище · Читалка');
		await expect(page.getByRole('button', { name: 'Удалить прочитанные статьи' })).toBeVisible();
		expect(await seriousA11yViolations(page), 'storage, Russian').toEqual([]);

		// What the service worker says (alerts, a refused change) follows: it reads this value.
		await expect
			.poll(() =>
				page.evaluate(
					() =>
						new Promise<unknown>((resolve, reject) => {
							const open = indexedDB.open('ttrss-reader');
							open.onerror = () => reject(new Error(String(open.error)));
							open.onsuccess = () => {
								const get = open.result
									.transaction('settings')
									.objectStore('settings')
									.get('i18n.language');
								get.onsuccess = () => {
									resolve(get.result);
									open.result.close();
								};
								get.onerror = () => reject(new Error(String(get.error)));
							};
						})
				)
			)
			.toBe('ru');
	});
});

test.describe('a reader whose browser prefers Polish', () => {
	test.use({ locale: 'pl-PL' });

	test('imports and exports subscriptions, and subscribes, in Polish', async ({ page }) => {
		await page.goto('/login');
		await page.getByRole('textbox', { name: 'Nazwa użytkownika' }).fill(testbed.user);
		await page.getByLabel('Hasło', { exact: true }).fill(testbed.password);
		await page.getByRole('button', { name: 'Zaloguj się' }).click();
		await expect(
			page.getByRole('navigation', { name: 'Kanały' }).getByRole('link').first()
		).toBeVisible();

		await page.goto('/settings/subscriptions');
		await expect(
			page.getByRole('heading', { level: 1, name: 'Import i eksport subskrypcji' })
		).toBeVisible();
		await page.getByRole('button', { name: 'Eksportuj subskrypcje' }).click();
		await expect(page.getByRole('status').filter({ hasText: /Zapisano tt-rss-/ })).toBeVisible();
		expect(await seriousA11yViolations(page), 'OPML, Polish').toEqual([]);

		await page.goto('/subscribe');
		await expect(page.getByRole('heading', { level: 1, name: 'Subskrybuj kanał' })).toBeVisible();
		await expect(page.getByRole('combobox', { name: 'Kategoria' })).toBeVisible();
		expect(await seriousA11yViolations(page), 'subscribe, Polish').toEqual([]);
	});
});

/**
 * Elements whose text does not fit their box: a button, label, link, heading or legend whose
 * content is wider than it (scrollWidth > clientWidth). Inline boxes have no width of their own.
 */
async function clippedTexts(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		[...document.querySelectorAll<HTMLElement>('button, label, a, h1, h2, h3, legend, dt, dd, th')]
			.filter((el) => {
				const style = getComputedStyle(el);
				if (style.display === 'none' || style.display === 'inline') return false;
				if (style.visibility === 'hidden' || el.getClientRects().length === 0) return false;
				return el.scrollWidth > el.clientWidth + 1;
			})
			.map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 50)}`)
	);
}

test.describe('the pseudo-locale (English ~40 % longer, accented)', () => {
	const viewports = [
		['phone', { width: 390, height: 844 }],
		['desktop', { width: 1280, height: 800 }]
	] as const;
	for (const [name, viewport] of viewports) {
		test(`clips no text on a ${name}`, async ({ page }, testInfo) => {
			await page.setViewportSize(viewport);
			// Chosen the way a developer does in Settings, kept on the device: not offered to readers.
			await page.addInitScript(() => localStorage.setItem('reader.language', 'en-XA'));
			const check = async (screen: string): Promise<void> => {
				await testInfo.attach(`${screen}, ${name}`, {
					body: await page.screenshot({ fullPage: true }),
					contentType: 'image/png'
				});
				expect(await clippedTexts(page), `${screen}, ${name}`).toEqual([]);
			};

			await page.goto('/login');
			await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
			await expect(page.getByRole('heading', { level: 1 })).toContainText('Šíĝñ íñ');
			// The check finds a clipped button when there is one.
			await page.evaluate(() => {
				const probe = document.createElement('button');
				probe.id = 'clip-probe';
				probe.textContent = 'A label far too long for its box';
				probe.style.cssText = 'width: 3rem; overflow: hidden; white-space: nowrap';
				document.body.append(probe);
			});
			expect(await clippedTexts(page)).toContain('button: A label far too long for its box');
			await page.evaluate(() => document.getElementById('clip-probe')?.remove());
			await check('login');

			await page.locator('input[name="user"]').fill(testbed.user);
			await page.locator('input[name="password"]').fill(testbed.password);
			await page.locator('button[type="submit"]').click();
			await expect(page).not.toHaveURL(/\/login/);
			await page.goto('/settings');
			await expect(page.getByRole('heading', { level: 1 })).toContainText('Šéţţíñĝš');
			await check('settings');
			for (const path of ['/settings/storage', '/settings/alerts', '/settings/subscriptions']) {
				await page.goto(path);
				await expect(page.getByRole('heading', { level: 1 })).toContainText('[');
				await check(path);
			}
		});
	}
});

// Last: after a refused password, tt-rss refuses every sign-in for a few seconds.
test('a refused password is explained in German, with the check-up finding', async ({ page }) => {
	await page.goto('/login');
	await page.getByRole('textbox', { name: 'Benutzername' }).fill(testbed.user);
	await page.getByLabel('Passwort', { exact: true }).fill('not-the-password');
	await page.getByRole('button', { name: 'Anmelden' }).click();
	// The API error's words and the check-up's both come from the German catalogs.
	await expect(page.getByRole('alert')).toContainText(
		'Benutzername oder Passwort wurden nicht akzeptiert'
	);
	const checkup = page.getByRole('region', { name: 'Server-Check' });
	await expect(checkup).toContainText('Problem: Benutzername oder Passwort ist falsch');
	await expect(checkup).toContainText('So behebst du es:');
	expect(await seriousA11yViolations(page), 'login failure, German').toEqual([]);
});
