// The plugin's "Turn on API access" button (issue 56) against the Plugin base class of both tt-rss
// versions: the handler turns API access on only for the session's own user, only on a POST with
// that session's CSRF token, and the pane speaks the user's tt-rss language.
// plugin-enable-api.php loads package/init.php with stand-ins for the rest of tt-rss.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentClasses, DEBIAN_PLUGIN, hasPhp, ROOT, VENDORED } from './testing/plugin-php';

const DEBIAN = DEBIAN_PLUGIN;
const currentClass = currentClasses('plugin-enable-api-');
const currentPluginClass = (): string => currentClass('Plugin.php');

interface Case {
	server: '2021' | 'current';
	session?: { uid?: number; csrf_token?: string; profile?: number };
	request?: {
		method?: string;
		post?: Record<string, string>;
		get?: Record<string, string>;
		accept?: string;
		accept_language?: string;
	};
	prefs?: Record<string, boolean | string>;
	call?: 'enable_api' | 'prefs';
	/** The language tt-rss's own __() answers in (the stand-in knows German only). */
	tt_language?: string;
}

interface Outcome {
	status: number;
	body: string;
	writes: Array<{ set: string; name?: string; value?: unknown; uid?: number; profile?: unknown }>;
	prefs: Record<string, unknown>;
}

const SESSION = { uid: 5, csrf_token: 'token-of-this-session' };
const JSON_ACCEPT = 'application/json';

describe.each([
	{
		name: "Debian's 2021 tt-rss",
		available: existsSync(DEBIAN),
		base: () => DEBIAN,
		server: '2021'
	},
	{
		name: 'the current tt-rss',
		available: existsSync(VENDORED),
		base: currentPluginClass,
		server: 'current'
	}
] as const)('the API button on $name', ({ available, base, server }) => {
	const run = (c: Omit<Case, 'server'>): Outcome =>
		JSON.parse(
			execFileSync(
				'php',
				[
					join(ROOT, 'src/lib/pwa/plugin-enable-api.php'),
					base(),
					join(ROOT, 'package/init.php'),
					JSON.stringify({ server, ...c })
				],
				{ encoding: 'utf8' }
			)
		) as Outcome;
	const skip = !hasPhp || !available;
	const prefsOn =
		server === 'current'
			? ['ENABLE_API_ACCESS', 'ENABLE_API_ACCESS_BROWSER']
			: ['ENABLE_API_ACCESS'];

	it.skipIf(skip)('refuses a POST without the session’s CSRF token, and changes nothing', () => {
		const posts: Record<string, string>[] = [{}, { csrf_token: '' }, { csrf_token: 'other' }];
		for (const post of posts) {
			const out = run({
				session: SESSION,
				request: { method: 'POST', post: { ...post }, accept: JSON_ACCEPT }
			});
			expect(out.status).toBe(403);
			expect(JSON.parse(out.body)).toMatchObject({ on: false });
			expect(out.writes).toEqual([]);
		}
		// A session without a token of its own matches nothing, not even an empty one.
		const bare = run({
			session: { uid: 5 },
			request: { method: 'POST', post: { csrf_token: '' }, accept: JSON_ACCEPT }
		});
		expect(bare.status).toBe(403);
		expect(bare.writes).toEqual([]);
	});

	it.skipIf(skip)('refuses a GET (a link or an image cannot turn it on), token or not', () => {
		for (const method of ['GET', 'HEAD']) {
			const out = run({
				session: SESSION,
				request: { method, get: { csrf_token: SESSION.csrf_token }, accept: JSON_ACCEPT }
			});
			expect(out.status).toBe(405);
			expect(out.writes).toEqual([]);
		}
	});

	it.skipIf(skip)('refuses without a signed-in user', () => {
		const out = run({
			session: { csrf_token: SESSION.csrf_token },
			request: { method: 'POST', post: { csrf_token: SESSION.csrf_token }, accept: JSON_ACCEPT }
		});
		expect(out.status).toBe(403);
		expect(out.writes).toEqual([]);
	});

	it.skipIf(skip)(
		'turns on the settings of the session’s own user only, whatever the request names',
		() => {
			const out = run({
				session: { ...SESSION, profile: 3 },
				request: {
					method: 'POST',
					post: {
						csrf_token: SESSION.csrf_token,
						uid: '9',
						owner_uid: '9',
						user: 'admin',
						login: 'admin',
						profile: '3'
					},
					get: { uid: '9' },
					accept: JSON_ACCEPT
				}
			});
			expect(out.status).toBe(200);
			expect(JSON.parse(out.body)).toEqual({
				on: true,
				message: 'API access is on for this account: the Reader can sign in.'
			});
			const sets = out.writes.filter((w) => w.name);
			expect(sets.map((w) => w.name)).toEqual(prefsOn);
			for (const write of out.writes) expect(write.uid).toBe(SESSION.uid);
			if (server === 'current') {
				// Through tt-rss's Prefs::set, for the account itself (no profile: the API reads it so).
				for (const write of sets)
					expect(write).toMatchObject({ set: 'Prefs::set', value: true, profile: null });
			} else {
				// 2021's set_pref updates rows only: tt-rss's own initialize_user_prefs makes missing ones.
				expect(out.writes[0]).toEqual({ set: 'initialize_user_prefs', uid: SESSION.uid });
				expect(sets[0]).toMatchObject({ set: 'set_pref', value: 'true' });
			}
		}
	);

	it.skipIf(skip)('sends a form post without JavaScript back to the preferences', () => {
		const out = run({
			session: SESSION,
			request: { method: 'POST', post: { csrf_token: SESSION.csrf_token }, accept: 'text/html' }
		});
		expect(out.status).toBe(303);
		expect(out.writes.filter((w) => w.name).map((w) => w.name)).toEqual(prefsOn);
	});

	it.skipIf(skip)(
		'shows the state, and the button with its reason and token only while it is off',
		() => {
			const off = run({ session: SESSION, call: 'prefs' });
			expect(off.body).toContain('API access is off for this account: “Enable API”');
			expect(off.body).toMatch(
				/<form dojoType="dijit.form.Form" class="reader-enable-api" method="post" action="backend.php">/
			);
			for (const [name, value] of [
				['op', 'PluginHandler'],
				['plugin', 'reader'],
				['method', 'enable_api'],
				['csrf_token', SESSION.csrf_token]
			]) {
				expect(off.body).toContain(`<input type="hidden" name="${name}" value="${value}">`);
			}
			expect(off.body).toContain('>Turn on API access</button>');
			expect(off.body).toContain(
				'Lets Reader for Tiny Tiny RSS and other apps sign in with your password or an app password.'
			);
			expect(off.body.includes('Enable browser-based API access')).toBe(server === 'current');
			// Rendering the pane changes nothing.
			expect(off.writes).toEqual([]);

			const on = run({
				session: SESSION,
				call: 'prefs',
				prefs: Object.fromEntries(prefsOn.map((name) => [name, true]))
			});
			expect(on.body).toContain('API access is on for this account: the Reader can sign in.');
			expect(on.body).not.toContain('<form');
			expect(on.body).not.toContain(SESSION.csrf_token);
		}
	);

	it.skipIf(skip)(
		'speaks the user’s tt-rss language: tt-rss’s words where it has them, ours otherwise',
		() => {
			const pane = (c: Omit<Case, 'server'>) => run({ session: SESSION, call: 'prefs', ...c }).body;
			// The Language preference (a tt-rss locale) wins over the browser's.
			const german = pane({
				prefs: { USER_LANGUAGE: 'de_DE' },
				tt_language: 'de',
				request: { accept_language: 'fr' }
			});
			expect(german).toContain('lang="de"');
			expect(german).toContain('>API-Zugriff einschalten</button>');
			expect(german).toContain(
				'Der API-Zugriff ist für dieses Konto ausgeschaltet: „[tt-rss] API aktivieren“'
			);
			// No preference ("auto" or unset): the browser's first language the app speaks.
			expect(
				pane({
					prefs: { USER_LANGUAGE: 'auto' },
					request: { accept_language: 'sv, fr-CH;q=0.9, en;q=0.5' }
				})
			).toContain('>Activer l’accès à l’API</button>');
			const arabic = pane({ prefs: { USER_LANGUAGE: 'ar_SA' } });
			expect(arabic).toContain('lang="ar" dir="rtl"');
			expect(arabic).toContain('>فعّل الوصول إلى API</button>');
			expect(pane({ prefs: { USER_LANGUAGE: 'pt_PT' } })).toContain(
				'>Ligar o acesso à API</button>'
			);
			expect(pane({ prefs: { USER_LANGUAGE: 'zh_CN' } })).toContain('>开启 API 访问</button>');
			// A language the app does not speak (and Traditional Chinese): English.
			for (const locale of ['nl_NL', 'zh_TW']) {
				expect(pane({ prefs: { USER_LANGUAGE: locale } })).toContain(
					'>Turn on API access</button>'
				);
			}
			expect(pane({ request: { accept_language: 'xx' } })).toContain('lang="en"');
		}
	);
});
