// The tt-rss plugin of the release archive (package/init.php) against the Plugin base class of both
// tt-rss versions it must load in: Debian's 2021 package (the test bed) and the current one (the
// vendored source). package/check-plugin.php loads it with stand-ins for the rest of tt-rss.
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentClasses, DEBIAN_PLUGIN, hasPhp, ROOT, VENDORED } from './testing/plugin-php';

const DEBIAN = DEBIAN_PLUGIN;
const currentClass = currentClasses('plugin-spec-');
const currentPluginClass = (): string => currentClass('Plugin.php');

interface Checked {
	about: unknown[];
	api_version: number;
	hooks: string[];
	toolbar: string;
	prefs: string;
	other_tab: string;
	public: { image: boolean; save: boolean };
	plain: string;
	rewritten: string;
	plain_images: unknown;
	images: Record<string, string> | null;
	list_images: Record<string, string> | null;
	more: string;
	more_images: Record<string, string> | null;
	queries: string[];
	key: string | null;
}

function check(base: string, mode: string, current: boolean): Checked {
	const args = [join(ROOT, 'package/check-plugin.php'), base, join(ROOT, 'package/init.php'), mode];
	if (current) args.push('current');
	return JSON.parse(execFileSync('php', args, { encoding: 'utf8' })) as Checked;
}

describe.each([
	{
		name: "Debian's 2021 tt-rss",
		available: existsSync(DEBIAN),
		base: () => DEBIAN,
		current: false
	},
	{
		name: 'the current tt-rss',
		available: existsSync(VENDORED),
		base: currentPluginClass,
		current: true
	}
])('the plugin on $name', ({ available, base, current }) => {
	it.skipIf(!hasPhp || !available)(
		'declares Plugin API 2, a user plugin, and its three hooks',
		() => {
			const checked = check(base(), 'api-on', current);
			expect(checked.api_version).toBe(2);
			expect(checked.about[3]).toBe(false);
			expect(checked.hooks).toEqual([
				'hook_main_toolbar_button',
				'hook_prefs_tab',
				'hook_render_article_api'
			]);
			expect(checked.public).toEqual({ image: true, save: false });
			expect(checked.toolbar).toMatch(/<a [^>]*href="[^"]+\/"[^>]*>Open in Reader<\/a>/);
			expect(checked.toolbar).not.toContain('API access off');
			expect(checked.prefs).toContain('API access is on');
			expect(checked.other_tab).toBe('');
		}
	);

	it.skipIf(!hasPhp || !available)('names the API setting that is off, and changes nothing', () => {
		const checked = check(base(), 'api-off', current);
		expect(checked.toolbar).toContain('(API access off: see Preferences)');
		expect(checked.toolbar).toContain('“Enable API”');
		expect(checked.prefs).toContain('“Enable API”');
		// Only the current tt-rss has the browser opt-in.
		expect(checked.prefs.includes('Enable browser-based API access')).toBe(current);
	});

	it.skipIf(!hasPhp || !available || !current)(
		'names the browser opt-in alone when only it is off',
		() => {
			const checked = check(base(), 'browser-off', current);
			expect(checked.toolbar).toContain('“Enable browser-based API access”');
			expect(checked.toolbar).not.toContain('“Enable API”');
		}
	);

	it.skipIf(!hasPhp || !available)(
		'signs the remote images of an article only when the app asks, each for its user',
		() => {
			const { plain, rewritten, plain_images, images, list_images, key } = check(
				base(),
				'api-on',
				current
			);
			// Without the flag (any other API client) the article is untouched.
			expect(plain).toContain('<img src="http://feeds.test/a.png" alt="a">');
			const proxy =
				'https://rss.test/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image';
			const signed = (url: string) => {
				const sig = createHmac('sha256', key ?? '')
					.update(`7\n${url}`)
					.digest('hex');
				return `${proxy}&uid=7&url=${encodeURIComponent(url)}&sig=${sig}`.replace(/&/g, '&amp;');
			};
			expect(key).toMatch(/^[0-9a-f]{64}$/);
			for (const url of [
				'http://feeds.test/a.png',
				'https://feeds.test/c.png',
				'https://feeds.test/d.png'
			]) {
				expect(rewritten).toContain(`<img src="${signed(url)}"`);
			}
			expect(rewritten).toContain(
				`srcset="${signed('https://feeds.test/c.png')} 1x, ${signed('https://feeds.test/c2.png')} 2x"`
			);
			expect(rewritten).toContain(`<source srcset="${signed('https://feeds.test/d.webp')}">`);
			// data: images and tt-rss's own (its image cache) stay as they are.
			expect(rewritten).toContain('<img src="data:image/png;base64,AAAA">');
			expect(rewritten).toContain('<img src="https://rss.test/tt-rss/cache/images/b.png">');
			expect(rewritten).not.toContain('src="http://feeds.test');
			// Every URL it signed for the row, image enclosures included, with its address (the app
			// takes the flavor image from it); nothing without the flag.
			expect(plain_images).toBeNull();
			const unescape = (html: string) => html.replace(/&amp;/g, '&');
			expect(images).toEqual(
				Object.fromEntries(
					[
						'http://feeds.test/a.png',
						'https://feeds.test/c.png',
						'https://feeds.test/c2.png',
						'https://feeds.test/d.webp',
						'https://feeds.test/d.png',
						'https://feeds.test/e.png'
					].map((url) => [url, unescape(signed(url))])
				)
			);
			// A list row has no body: the stored body's images are signed (the flavor image comes
			// from there), and the enclosures.
			expect(list_images).toEqual({
				'https://feeds.test/stored.png': unescape(signed('https://feeds.test/stored.png')),
				'https://feeds.test/e.png': unescape(signed('https://feeds.test/e.png'))
			});
		}
	);

	it.skipIf(!hasPhp || !available)(
		'signs every image that loads by itself: srcset as tt-rss writes it, posters, the flavor image (issue 55)',
		() => {
			const { more, more_images, queries, key } = check(base(), 'api-on', current);
			const proxy =
				'https://rss.test/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image';
			const signed = (url: string) => {
				const sig = createHmac('sha256', key ?? '')
					.update(`7\n${url}`)
					.digest('hex');
				return `${proxy}&uid=7&url=${encodeURIComponent(url)}&sig=${sig}`;
			};
			const escaped = (url: string) => signed(url).replace(/&/g, '&amp;');
			// tt-rss joins srcset candidates with "," alone; a comma inside a URL stays in it.
			expect(more).toContain(
				`srcset="${escaped('https://feeds.test/s1.png')} 1x, ${escaped('https://feeds.test/w_2,h_2/s2.png')} 2x"`
			);
			expect(more).toContain(`<video poster="${escaped('https://feeds.test/poster.png')}"`);
			// Media stay as they are (the proxy serves images only).
			expect(more).toContain('<source src="https://feeds.test/v.webm">');
			expect(more).not.toMatch(/(src|srcset|poster)="https:\/\/feeds\.test\/[^"]*\.png/);
			// Signed without being in the body: the YouTube thumbnail tt-rss names as the article's
			// image, the image enclosure, and the flavor image the current tt-rss sends with the row.
			const urls = [
				'https://feeds.test/s.png',
				'https://feeds.test/s1.png',
				'https://feeds.test/w_2,h_2/s2.png',
				'https://feeds.test/poster.png',
				'https://img.youtube.com/vi/abc_D-1/hqdefault.jpg',
				'https://feeds.test/e.png',
				'https://feeds.test/flavor.png'
			];
			expect(more_images).toEqual(Object.fromEntries(urls.map((url) => [url, signed(url)])));
			// An API row's id is the article's ttrss_entries id: the stored body and the enclosures
			// are found by ref_id (int_id differs from it once a server has a history).
			const byUser = queries.filter((q) => q.includes('ttrss_user_entries'));
			expect(byUser.length).toBeGreaterThanOrEqual(2);
			for (const query of byUser) {
				expect(query).toContain('ue.ref_id = ?');
				expect(query).not.toContain('int_id');
			}
		}
	);
});
