<?php
// SPDX-License-Identifier: GPL-3.0-or-later
// The licence: LICENSE.txt beside this file; those of the packages the app bundles:
// THIRD-PARTY-NOTICES.txt.
// The Reader (an offline-first web app for Tiny Tiny RSS), installed as a tt-rss plugin: this folder
// holds the built app, served as static files next to tt-rss, and this class, which adds an
// "Open in Reader" entry to tt-rss's toolbar and preferences. Where the account's API access (or, on
// current tt-rss, its browser-based API access) is off, the entry says so and names the setting, and
// the pane in Preferences offers one button that turns both on for the signed-in user's own account
// (issue 56: their click, a POST with tt-rss's CSRF token; nothing changes without it). Its texts
// follow the user's tt-rss language. Works with Debian's 2021 tt-rss and the current one
// (both: Plugin API 2, hooks added with $host::HOOK_…, hook_main_toolbar_button printing its HTML).
//
// Image proxy (issue 24): when the app asks for it (`reader_image_proxy` in getHeadlines/getArticle),
// HOOK_RENDER_ARTICLE_API rewrites each image of an article the user reads to a same-origin URL,
// public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=…&url=…&sig=…, signed with an HMAC
// key kept per user in tt-rss's plugin storage. The public method `image` fetches only URLs whose
// signature checks out (never an open proxy), only raster images, within a size limit and a
// timeout, so the app's worker keeps a readable response that counts at its true size.
//
// A feed's author chooses those addresses, so the proxy reaches public unicast addresses only
// (issue 55): it never signs an address that is not one, resolves a name itself (every A and AAAA
// record must be public), connects to the very addresses it checked (curl's CURLOPT_RESOLVE, so a
// second DNS answer cannot move it) and follows a redirect only after checking its target the same
// way. It relies on neither tt-rss version's UrlHelper: 2021's lets private, link-local and oddly
// spelled loopback addresses through, today's private ones on ports 80 and 443. See
// docs/security.md of the source repository.

// Opened directly by a browser rather than loaded by tt-rss: nothing to show.
if (!class_exists('Plugin')) {
	http_response_code(404);
	exit;
}

require_once __DIR__ . '/shared-settings.php';

class Reader extends Plugin {
	use ReaderSharedSettings;

	const VERSION = '@VERSION@';

	/** The public method that serves a signed image, and the request flag that asks for signing. */
	const IMAGE_METHOD = 'image';
	const IMAGE_FLAG = 'reader_image_proxy';
	/** Larger images are refused (bytes); the remote host gets this long (seconds). */
	const IMAGE_MAX_BYTES = 10485760;
	const IMAGE_TIMEOUT = 20;
	/** Raster types only: an SVG served from tt-rss's origin could run script there. */
	const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif',
		'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon'];
	/** Redirects followed, each target checked like the first address; the ports it connects to. */
	const IMAGE_MAX_REDIRECTS = 3;
	const IMAGE_PORTS = [80, 443];
	/**
	 * Networks the administrator lets the proxy reach although they are not public (a feed host on
	 * the LAN): comma-separated CIDRs in this environment variable, e.g. in tt-rss's config.php
	 * `putenv('READER_IMAGE_PROXY_ALLOW=192.168.1.20/32');`. Empty by default.
	 */
	const IMAGE_ALLOW_ENV = 'READER_IMAGE_PROXY_ALLOW';

	/** The public method that serves an article's page for full text, and the row's field for it. */
	const PAGE_METHOD = 'page';
	const PAGE_FIELD = 'reader_page';
	/** Larger pages are refused (bytes); the remote host gets this long (seconds). */
	const PAGE_MAX_BYTES = 5242880;
	const PAGE_TIMEOUT = 15;
	/** What a page may be: HTML only. */
	const PAGE_TYPES = ['text/html', 'application/xhtml+xml'];
	/** Image addresses signed for one page at most (a gallery page keeps its first ones). */
	const PAGE_MAX_IMAGES = 500;

	/**
	 * IPv4 ranges that are not public unicast (IANA's special-purpose registry, RFC 6890 and after):
	 * [network, prefix length, what it is]. Everything else in IPv4 is public.
	 */
	const REFUSED_IPV4 = [
		['0.0.0.0', 8, '“this network”'],
		['10.0.0.0', 8, 'private'],
		['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
		['127.0.0.0', 8, 'loopback'],
		['169.254.0.0', 16, 'link-local'],
		['172.16.0.0', 12, 'private'],
		['192.0.0.0', 24, 'IETF protocol assignment'],
		['192.0.2.0', 24, 'documentation'],
		['192.88.99.0', 24, '6to4 relay'],
		['192.168.0.0', 16, 'private'],
		['198.18.0.0', 15, 'benchmarking'],
		['198.51.100.0', 24, 'documentation'],
		['203.0.113.0', 24, 'documentation'],
		['224.0.0.0', 4, 'multicast'],
		['240.0.0.0', 4, 'reserved or broadcast'],
	];
	/**
	 * IPv6: public unicast lives in 2000::/3 only, less these. Outside it, the forms that carry an
	 * IPv4 address (mapped ::ffff:0:0/96, NAT64's 64:ff9b::/96) are judged by that address; every
	 * other one (loopback, unspecified, IPv4-compatible, unique-local, link-local, site-local,
	 * multicast, discard) is refused.
	 */
	const REFUSED_IPV6 = [
		['2001::', 23, 'IETF protocol assignment (Teredo, benchmarking, ORCHID)'],
		['2001:db8::', 32, 'documentation'],
		['2002::', 16, '6to4'],
		['3fff::', 20, 'documentation'],
	];
	const NAMED_IPV6 = [
		['::', 128, 'unspecified'],
		['::1', 128, 'loopback'],
		['::', 96, 'IPv4-compatible'],
		['64:ff9b:1::', 48, 'local NAT64'],
		['100::', 64, 'discard-only'],
		['fc00::', 7, 'unique-local'],
		['fe80::', 10, 'link-local'],
		['fec0::', 10, 'site-local'],
		['ff00::', 8, 'multicast'],
	];

	/** @var PluginHost */
	private $host;

	function about() {
		return [self::VERSION,
			'Reader: an offline-first app for your feeds (opens from the toolbar)',
			'ttrss-reader',
			false,
			''];
	}

	function api_version() {
		return 2;
	}

	function init($host) {
		$this->host = $host;
		$host->add_hook($host::HOOK_MAIN_TOOLBAR_BUTTON, $this);
		$host->add_hook($host::HOOK_PREFS_TAB, $this);
		$host->add_hook($host::HOOK_RENDER_ARTICLE_API, $this);
	}

	function is_public_method($method) {
		return $method === self::IMAGE_METHOD
			|| $method === self::PAGE_METHOD
			|| $method === self::$SHARED_METHOD;
	}

	/** The app's address relative to tt-rss's own pages (index.php, prefs.php): this folder. */
	private function app_url() {
		return basename(dirname(__DIR__)) . '/' . basename(__DIR__) . '/';
	}

	/** A user preference of the signed-in user (get_pref: in 2021's tt-rss and, deprecated, today's). */
	private function pref($name) {
		return get_pref($name);
	}

	/** The preferences the button turns on: "Enable API", and the browser opt-in where tt-rss has it. */
	private static function api_prefs() {
		$prefs = ['ENABLE_API_ACCESS' => 'Enable API'];
		// Only the current tt-rss refuses API calls a browser makes without this second opt-in.
		if (class_exists('Prefs') && defined('Prefs::ENABLE_API_ACCESS_BROWSER')) {
			$prefs[Prefs::ENABLE_API_ACCESS_BROWSER] = 'Enable browser-based API access';
		}
		return $prefs;
	}

	/**
	 * @return string[] what keeps the app from signing in, as the settings' own labels name it
	 * (tt-rss's msgids, so in tt-rss's translation of them)
	 */
	private function missing_access() {
		$missing = [];
		foreach (self::api_prefs() as $name => $label) {
			if (!$this->pref($name)) $missing[] = __($label);
		}
		return $missing;
	}

	/** The labels quoted as the user's language quotes, joined by its "and". */
	private function labels($labels) {
		$quote = $this->t('quote');
		return implode($this->t('and'), array_map(function ($label) use ($quote) {
			return $quote[0] . $label . $quote[1];
		}, $labels));
	}

	/** Where the button is: tt-rss's own words for its tabs, then the pane and the button. */
	private function button_path() {
		$quote = $this->t('quote');
		return implode($this->t('arrow'), [__('Preferences'), __('Preferences'), $this->t('pane'),
			$quote[0] . $this->t('button') . $quote[1]]);
	}

	private function notice($missing) {
		if (!$missing) return '';
		return sprintf($this->t('notice'), $this->labels($missing), $this->button_path());
	}

	/** lang and dir of our own texts (tt-rss's page stays as it is). */
	private function text_attributes() {
		$lang = $this->language();
		return 'lang="' . htmlspecialchars($lang) . '" dir="' . ($lang === 'ar' ? 'rtl' : 'ltr') . '"';
	}

	function hook_main_toolbar_button() {
		$missing = $this->missing_access();
		$title = $missing ? $this->notice($missing) : $this->t('open_title');
		?>
		<a class="reader-open" id="reader-open" style="order: 0; margin: 0 6px; white-space: nowrap"
			href="<?= htmlspecialchars($this->app_url()) ?>" target="_blank" rel="noopener" <?= $this->text_attributes() ?>
			title="<?= htmlspecialchars($title) ?>"><?= htmlspecialchars($this->t('open')) ?><?php
			if ($missing) { ?> <span class="reader-access">(<?= htmlspecialchars($this->t('off_short')) ?>)</span><?php } ?></a>
		<?php
	}

	/**
	 * The pane in Preferences → Preferences: open the app, the account's API access, and (while it
	 * is off) one button that turns it on for this account. The button posts the form to
	 * enable_api through tt-rss's backend.php with tt-rss's CSRF token; the pane then says it is on
	 * and ticks tt-rss's own checkboxes, so a later "Save configuration" keeps them on.
	 */
	function hook_prefs_tab($args) {
		if ($args != 'prefPrefs') return;
		$missing = $this->missing_access();
		$token = isset($_SESSION['csrf_token']) && is_string($_SESSION['csrf_token']) ? $_SESSION['csrf_token'] : '';
		$boxes = array_map(function ($name) { return 'CB_' . $name; }, array_keys(self::api_prefs()));
		?>
		<div dojoType="dijit.layout.AccordionPane" title="<?= htmlspecialchars($this->t('pane')) ?>">
		<div class="reader-pane" <?= $this->text_attributes() ?>>
			<p><a class="reader-open" href="<?= htmlspecialchars($this->app_url()) ?>" target="_blank"
				rel="noopener"><?= htmlspecialchars($this->t('open')) ?></a>
				(<?= htmlspecialchars(sprintf($this->t('version'), self::VERSION)) ?>)</p>
			<p class="reader-access" role="status"><?= htmlspecialchars($missing
				? sprintf($this->t('off'), $this->labels($missing)) : $this->t('on')) ?></p>
			<?php if ($missing) { ?>
			<form dojoType="dijit.form.Form" class="reader-enable-api" method="post" action="backend.php">
				<script type="dojo/method" event="onSubmit" args="evt">
					evt.preventDefault();
					const form = this.domNode;
					const status = form.parentNode.querySelector('.reader-access');
					const failed = <?= json_encode($this->t('failed'), JSON_HEX_TAG | JSON_UNESCAPED_UNICODE) ?>;
					fetch('backend.php', {method: 'POST', credentials: 'same-origin',
						headers: {Accept: 'application/json'}, body: new URLSearchParams(new FormData(form))})
						.then((reply) => reply.json())
						.then((reply) => {
							if (!reply || typeof reply.message !== 'string') throw new Error('no answer');
							status.textContent = reply.message;
							if (reply.on) {
								form.hidden = true;
								for (const id of <?= json_encode($boxes, JSON_HEX_TAG) ?>) {
									const box = dijit.byId(id);
									if (box) box.set('checked', true);
								}
							}
						})
						.catch(() => { status.textContent = failed; });
					return false;
				</script>
				<input type="hidden" name="op" value="PluginHandler">
				<input type="hidden" name="plugin" value="reader">
				<input type="hidden" name="method" value="enable_api">
				<input type="hidden" name="csrf_token" value="<?= htmlspecialchars($token) ?>">
				<p><button dojoType="dijit.form.Button" type="submit" class="alt-primary"><?=
					htmlspecialchars($this->t('button')) ?></button>
				<span class="reader-reason"><?= htmlspecialchars($this->t('reason')) ?></span></p>
				<p class="reader-scope"><?= htmlspecialchars(sprintf($this->t('scope'),
					$this->labels(array_map('__', array_values(self::api_prefs()))))) ?></p>
			</form>
			<?php } ?>
		</div>
		</div>
		<?php
	}

	/**
	 * backend.php?op=PluginHandler&plugin=reader&method=enable_api (the class name as the current
	 * tt-rss autoloads it; 2021 lowercases it): turns API access on for the
	 * signed-in user, the one whose session made the request, and only on their click: a POST
	 * carrying tt-rss's CSRF token of that session (the current tt-rss checks it before calling a
	 * plugin's method; 2021's does not, so it is checked here on both). Any user, uid or profile in
	 * the request is ignored. Answers JSON {on, message}; a plain form post (no JavaScript) goes
	 * back to the preferences.
	 */
	function enable_api() {
		$uid = isset($_SESSION['uid']) && is_numeric($_SESSION['uid']) ? (int) $_SESSION['uid'] : 0;
		$method = isset($_SERVER['REQUEST_METHOD']) ? strtoupper((string) $_SERVER['REQUEST_METHOD']) : '';
		if ($method !== 'POST') {
			self::refuse_json(405, 'POST only.');
			return;
		}
		$token = isset($_POST['csrf_token']) && is_string($_POST['csrf_token']) ? $_POST['csrf_token'] : '';
		$session_token = isset($_SESSION['csrf_token']) && is_string($_SESSION['csrf_token']) ? $_SESSION['csrf_token'] : '';
		if ($uid <= 0 || $token === '' || $session_token === ''
				|| !hash_equals($session_token, $token)
				|| (function_exists('validate_csrf') && !validate_csrf($token))) {
			self::refuse_json(403, 'Not signed in, or not tt-rss’s own form (CSRF token).');
			return;
		}
		self::turn_on_api($uid);
		$on = !$this->missing_access();
		$accept = isset($_SERVER['HTTP_ACCEPT']) ? (string) $_SERVER['HTTP_ACCEPT'] : '';
		if (strpos($accept, 'application/json') === false) {
			header('Location: prefs.php', true, 303);
			return;
		}
		header('Content-Type: application/json; charset=utf-8');
		header('Cache-Control: no-store');
		print json_encode(['on' => $on, 'message' => $on ? $this->t('on') : $this->t('failed')]);
	}

	private static function refuse_json($status, $reason) {
		http_response_code($status);
		header('Content-Type: application/json; charset=utf-8');
		header('Cache-Control: no-store');
		print json_encode(['on' => false, 'error' => $reason]);
	}

	/**
	 * Sets the API preferences of user `$uid` through tt-rss's own preference functions, always
	 * for the account itself (no profile: these are not per-profile, and the API reads them so).
	 */
	private static function turn_on_api($uid) {
		if (class_exists('Prefs') && method_exists('Prefs', 'set')) {
			foreach (array_keys(self::api_prefs()) as $name) Prefs::set($name, true, $uid, null);
			return;
		}
		// 2021: set_pref only updates an existing row; tt-rss makes the rows at sign-in, and
		// initialize_user_prefs adds any that are missing (with their defaults).
		if (class_exists('Pref_Prefs') && method_exists('Pref_Prefs', 'initialize_user_prefs')) {
			Pref_Prefs::initialize_user_prefs($uid);
		}
		set_pref('ENABLE_API_ACCESS', 'true', $uid);
	}

	/** The app's languages (its catalogs), as our texts have them. */
	const LANGUAGES = ['en', 'ar', 'de', 'es', 'fr', 'it', 'ja', 'pl', 'pt-BR', 'ru', 'zh-CN'];

	/**
	 * Our own texts in the app's eleven languages. tt-rss's own words (its settings' labels, the
	 * "Preferences" tab) come from tt-rss's translation through __() instead. `pane` is the app's
	 * short name in that language (its catalogs' app_short_name); `notice`: %1$s the settings that
	 * are off, %2$s where the button is.
	 */
	const TEXTS = [
		'en' => [
			'pane' => 'Reader',
			'open' => 'Open in Reader',
			'open_title' => 'Open the Reader (works offline)',
			'off_short' => 'API access off: see Preferences',
			'notice' => 'The Reader signs in through the API. Off for your account: %1$s. To turn it on: %2$s.',
			'version' => 'version %s',
			'on' => 'API access is on for this account: the Reader can sign in.',
			'off' => 'API access is off for this account: %s.',
			'button' => 'Turn on API access',
			'reason' => 'Lets Reader for Tiny Tiny RSS and other apps sign in with your password or an app password.',
			'scope' => 'Turns on %s, for your account only.',
			'failed' => 'API access could not be turned on. Reload the page and try again.',
			'and' => ' and ',
			'arrow' => ' → ',
			'quote' => ['“', '”'],
		],
		'ar' => [
			'pane' => 'القارئ',
			'open' => 'افتح في القارئ',
			'open_title' => 'افتح القارئ (يعمل دون اتصال)',
			'off_short' => 'الوصول إلى API مُعطَّل: راجع التفضيلات',
			'notice' => 'يسجّل القارئ الدخول عبر API. مُعطَّل لحسابك: %1$s. لتفعيله: %2$s.',
			'version' => 'الإصدار %s',
			'on' => 'الوصول إلى API مُفعَّل لهذا الحساب: يمكن للقارئ تسجيل الدخول.',
			'off' => 'الوصول إلى API مُعطَّل لهذا الحساب: %s.',
			'button' => 'فعّل الوصول إلى API',
			'reason' => 'يتيح لتطبيق قارئ Tiny Tiny RSS وللتطبيقات الأخرى تسجيل الدخول بكلمة مرورك أو بكلمة مرور تطبيق.',
			'scope' => 'يفعّل %s لحسابك فقط.',
			'failed' => 'تعذّر تفعيل الوصول إلى API. أعد تحميل الصفحة وحاول مرة أخرى.',
			'and' => ' و',
			'arrow' => ' ← ',
			'quote' => ['«', '»'],
		],
		'de' => [
			'pane' => 'Reader',
			'open' => 'Im Reader öffnen',
			'open_title' => 'Den Reader öffnen (funktioniert offline)',
			'off_short' => 'API-Zugriff aus: siehe Einstellungen',
			'notice' => 'Der Reader meldet sich über die API an. Für dein Konto ausgeschaltet: %1$s. Einschalten: %2$s.',
			'version' => 'Version %s',
			'on' => 'Der API-Zugriff ist für dieses Konto eingeschaltet: Der Reader kann sich anmelden.',
			'off' => 'Der API-Zugriff ist für dieses Konto ausgeschaltet: %s.',
			'button' => 'API-Zugriff einschalten',
			'reason' => 'Damit können sich Reader für Tiny Tiny RSS und andere Apps mit deinem Passwort oder einem App-Passwort anmelden.',
			'scope' => 'Schaltet %s ein, nur für dein Konto.',
			'failed' => 'Der API-Zugriff konnte nicht eingeschaltet werden. Lade die Seite neu und versuche es noch einmal.',
			'and' => ' und ',
			'arrow' => ' → ',
			'quote' => ['„', '“'],
		],
		'es' => [
			'pane' => 'Lector',
			'open' => 'Abrir en el Lector',
			'open_title' => 'Abrir el Lector (funciona sin conexión)',
			'off_short' => 'Acceso a la API desactivado: ver Preferencias',
			'notice' => 'El Lector inicia sesión a través de la API. Desactivado para tu cuenta: %1$s. Para activarlo: %2$s.',
			'version' => 'versión %s',
			'on' => 'El acceso a la API está activado para esta cuenta: el Lector puede iniciar sesión.',
			'off' => 'El acceso a la API está desactivado para esta cuenta: %s.',
			'button' => 'Activar el acceso a la API',
			'reason' => 'Permite que Lector para Tiny Tiny RSS y otras apps inicien sesión con tu contraseña o una contraseña de aplicación.',
			'scope' => 'Activa %s, solo para tu cuenta.',
			'failed' => 'No se pudo activar el acceso a la API. Recarga la página e inténtalo de nuevo.',
			'and' => ' y ',
			'arrow' => ' → ',
			'quote' => ['«', '»'],
		],
		'fr' => [
			'pane' => 'Lecteur',
			'open' => 'Ouvrir dans le Lecteur',
			'open_title' => 'Ouvrir le Lecteur (fonctionne hors ligne)',
			'off_short' => "Accès à l’API désactivé\u{a0}: voir les Préférences",
			'notice' => "Le Lecteur se connecte par l’API. Désactivé pour votre compte\u{a0}: %1\$s. Pour l’activer\u{a0}: %2\$s.",
			'version' => 'version %s',
			'on' => "L’accès à l’API est activé pour ce compte\u{a0}: le Lecteur peut se connecter.",
			'off' => "L’accès à l’API est désactivé pour ce compte\u{a0}: %s.",
			'button' => 'Activer l’accès à l’API',
			'reason' => 'Permet à Lecteur pour Tiny Tiny RSS et à d’autres applications de se connecter avec votre mot de passe ou un mot de passe d’application.',
			'scope' => 'Active %s, pour votre compte uniquement.',
			'failed' => 'L’accès à l’API n’a pas pu être activé. Rechargez la page et réessayez.',
			'and' => ' et ',
			'arrow' => ' → ',
			'quote' => ["«\u{a0}", "\u{a0}»"],
		],
		'it' => [
			'pane' => 'Lettore',
			'open' => 'Apri nel Lettore',
			'open_title' => 'Apri il Lettore (funziona offline)',
			'off_short' => 'Accesso all’API disattivato: vedi Preferenze',
			'notice' => 'Il Lettore accede tramite l’API. Disattivato per il tuo account: %1$s. Per attivarlo: %2$s.',
			'version' => 'versione %s',
			'on' => 'L’accesso all’API è attivo per questo account: il Lettore può accedere.',
			'off' => 'L’accesso all’API è disattivato per questo account: %s.',
			'button' => 'Attiva l’accesso all’API',
			'reason' => 'Permette a Lettore per Tiny Tiny RSS e ad altre app di accedere con la tua password o una password per app.',
			'scope' => 'Attiva %s, solo per il tuo account.',
			'failed' => 'Non è stato possibile attivare l’accesso all’API. Ricarica la pagina e riprova.',
			'and' => ' e ',
			'arrow' => ' → ',
			'quote' => ['«', '»'],
		],
		'ja' => [
			'pane' => 'リーダー',
			'open' => 'リーダーで開く',
			'open_title' => 'リーダーを開く（オフラインでも使えます）',
			'off_short' => 'API アクセスがオフ：設定を参照',
			'notice' => 'リーダーは API でログインします。このアカウントでオフ：%1$s。オンにするには：%2$s。',
			'version' => 'バージョン %s',
			'on' => 'このアカウントの API アクセスはオンです。リーダーでログインできます。',
			'off' => 'このアカウントの API アクセスはオフです：%s。',
			'button' => 'API アクセスをオンにする',
			'reason' => 'Tiny Tiny RSS リーダーなどのアプリが、あなたのパスワードまたはアプリパスワードでログインできるようになります。',
			'scope' => 'あなたのアカウントに限り、%s をオンにします。',
			'failed' => 'API アクセスをオンにできませんでした。ページを再読み込みして、もう一度お試しください。',
			'and' => '、',
			'arrow' => ' → ',
			'quote' => ['「', '」'],
		],
		'pl' => [
			'pane' => 'Czytnik',
			'open' => 'Otwórz w Czytniku',
			'open_title' => 'Otwórz Czytnik (działa offline)',
			'off_short' => 'Dostęp do API wyłączony: zobacz Ustawienia',
			'notice' => 'Czytnik loguje się przez API. Wyłączone dla Twojego konta: %1$s. Aby włączyć: %2$s.',
			'version' => 'wersja %s',
			'on' => 'Dostęp do API jest włączony dla tego konta: Czytnik może się zalogować.',
			'off' => 'Dostęp do API jest wyłączony dla tego konta: %s.',
			'button' => 'Włącz dostęp do API',
			'reason' => 'Pozwala aplikacji Czytnik dla Tiny Tiny RSS i innym aplikacjom logować się Twoim hasłem lub hasłem aplikacji.',
			'scope' => 'Włącza %s, tylko dla Twojego konta.',
			'failed' => 'Nie udało się włączyć dostępu do API. Przeładuj stronę i spróbuj ponownie.',
			'and' => ' i ',
			'arrow' => ' → ',
			'quote' => ['„', '”'],
		],
		'pt-BR' => [
			'pane' => 'Leitor',
			'open' => 'Abrir no Leitor',
			'open_title' => 'Abrir o Leitor (funciona offline)',
			'off_short' => 'Acesso à API desligado: veja Preferências',
			'notice' => 'O Leitor entra pela API. Desligado para sua conta: %1$s. Para ligar: %2$s.',
			'version' => 'versão %s',
			'on' => 'O acesso à API está ligado para esta conta: o Leitor pode entrar.',
			'off' => 'O acesso à API está desligado para esta conta: %s.',
			'button' => 'Ligar o acesso à API',
			'reason' => 'Permite que o Leitor para Tiny Tiny RSS e outros apps entrem com sua senha ou uma senha de app.',
			'scope' => 'Liga %s, só para a sua conta.',
			'failed' => 'Não foi possível ligar o acesso à API. Recarregue a página e tente de novo.',
			'and' => ' e ',
			'arrow' => ' → ',
			'quote' => ['“', '”'],
		],
		'ru' => [
			'pane' => 'Читалка',
			'open' => 'Открыть в Читалке',
			'open_title' => 'Открыть Читалку (работает офлайн)',
			'off_short' => 'Доступ к API выключен: см. Настройки',
			'notice' => 'Читалка входит через API. Выключено для вашей учётной записи: %1$s. Чтобы включить: %2$s.',
			'version' => 'версия %s',
			'on' => 'Доступ к API для этой учётной записи включён: Читалка может войти.',
			'off' => 'Доступ к API для этой учётной записи выключен: %s.',
			'button' => 'Включить доступ к API',
			'reason' => 'Позволяет Читалке для Tiny Tiny RSS и другим приложениям входить с вашим паролем или паролем приложения.',
			'scope' => 'Включает %s только для вашей учётной записи.',
			'failed' => 'Не удалось включить доступ к API. Перезагрузите страницу и попробуйте снова.',
			'and' => ' и ',
			'arrow' => ' → ',
			'quote' => ['«', '»'],
		],
		'zh-CN' => [
			'pane' => '阅读器',
			'open' => '在阅读器中打开',
			'open_title' => '打开阅读器（可离线使用）',
			'off_short' => 'API 访问已关闭：见偏好设置',
			'notice' => '阅读器通过 API 登录。你的账户已关闭：%1$s。开启方法：%2$s。',
			'version' => '版本 %s',
			'on' => '此账户的 API 访问已开启：阅读器可以登录。',
			'off' => '此账户的 API 访问已关闭：%s。',
			'button' => '开启 API 访问',
			'reason' => '让 Tiny Tiny RSS 阅读器和其他应用用你的密码或应用密码登录。',
			'scope' => '仅为你的账户开启 %s。',
			'failed' => '无法开启 API 访问。请重新加载页面后再试。',
			'and' => '和',
			'arrow' => ' → ',
			'quote' => ['“', '”'],
		],
	];

	/** @var ?string */
	private $language = null;

	/**
	 * The user's tt-rss language as ours: their Language preference (USER_LANGUAGE, a locale such
	 * as de_DE), else the browser's (Accept-Language, as tt-rss itself falls back), else English.
	 */
	private function language() {
		if ($this->language !== null) return $this->language;
		$wanted = [];
		$pref = isset($_SESSION['uid']) ? $this->pref('USER_LANGUAGE') : '';
		if (is_string($pref) && $pref !== '' && $pref !== 'auto') $wanted[] = $pref;
		if (!empty($_SERVER['HTTP_ACCEPT_LANGUAGE']) && is_string($_SERVER['HTTP_ACCEPT_LANGUAGE'])) {
			$ranked = [];
			foreach (explode(',', $_SERVER['HTTP_ACCEPT_LANGUAGE']) as $i => $part) {
				if (!preg_match('/^\s*([a-zA-Z]{1,8}(?:[-_][a-zA-Z0-9]{1,8})*)\s*(?:;\s*q\s*=\s*([01](?:\.\d+)?))?/', $part, $m)) continue;
				$q = isset($m[2]) && $m[2] !== '' ? (float) $m[2] : 1.0;
				if ($q > 0) $ranked[] = [$q, -$i, $m[1]];
			}
			rsort($ranked);
			foreach ($ranked as $r) $wanted[] = $r[2];
		}
		foreach ($wanted as $tag) {
			$found = self::our_language($tag);
			if ($found !== null) return $this->language = $found;
		}
		return $this->language = 'en';
	}

	/** A locale (de_DE, pt-BR, zh_TW) as one of LANGUAGES, or null. */
	private static function our_language($tag) {
		$tag = strtolower(str_replace('_', '-', $tag));
		$primary = explode('-', $tag)[0];
		if ($primary === 'zh') {
			// Traditional Chinese readers get English rather than the simplified script.
			return preg_match('/^zh(-hans|-cn|-sg)?(-|$)/', $tag) && !preg_match('/-(hant|tw|hk|mo)(-|$)/', $tag)
				? 'zh-CN' : null;
		}
		if ($primary === 'pt') return 'pt-BR';
		return in_array($primary, self::LANGUAGES, true) ? $primary : null;
	}

	/** One of our texts in the user's language (English where a language lacks it). */
	private function t($key) {
		$table = self::TEXTS;
		return $table[$this->language()][$key] ?? $table['en'][$key];
	}

	/** tt-rss's own address (SELF_URL_PATH), without a trailing slash: 2021's function, or today's. */
	private static function self_url() {
		$url = class_exists('Config') && method_exists('Config', 'get_self_url')
			? Config::get_self_url() : get_self_url_prefix();
		return rtrim($url, '/');
	}

	/** The signature of one image URL for one user: HMAC-SHA256 with that user's key. */
	private static function image_signature($key, $uid, $url) {
		return hash_hmac('sha256', $uid . "\n" . $url, $key);
	}

	/**
	 * The signature of one page URL for one user: the same key, another domain ("page" never
	 * starts an image's message, whose first line is a user id), so neither signs for the other.
	 */
	private static function page_signature($key, $uid, $url) {
		return hash_hmac('sha256', self::PAGE_METHOD . "\n" . $uid . "\n" . $url, $key);
	}

	/** The user's signing key, read straight from the plugin storage (public.php has no user). */
	private static function stored_key($uid) {
		$sth = Db::pdo()->prepare('SELECT content FROM ttrss_plugin_storage WHERE name = ? AND owner_uid = ?');
		$sth->execute([self::class, $uid]);
		$row = $sth->fetch();
		$data = $row ? @unserialize($row['content'], ['allowed_classes' => false]) : false;
		return is_array($data) && !empty($data['image_key']) && is_string($data['image_key'])
			? $data['image_key'] : null;
	}

	/** The signed user's key, made on first use. ("Clear data" of the plugin revokes every URL.) */
	private function user_key() {
		$key = $this->host->get($this, 'image_key');
		if (!$key) {
			$key = bin2hex(random_bytes(32));
			$this->host->set($this, 'image_key', $key);
		}
		return $key;
	}

	/** @var array<string, string> the URLs signed for the row being rendered, and their addresses */
	private $signed = [];

	/** The same-origin address that serves `$url` through the proxy, signed for `$uid`. */
	private function proxied_url($url, $uid, $key) {
		return $this->signed[$url] = self::proxy_address(self::IMAGE_METHOD, $uid, $url,
			self::image_signature($key, $uid, $url));
	}

	/** public.php's address of one of our public methods for one signed URL (no session in it). */
	private static function proxy_address($method, $uid, $url, $sig) {
		return self::self_url() . '/public.php?' . http_build_query([
			'op' => 'pluginhandler',
			'plugin' => 'reader',
			'pmethod' => $method,
			'uid' => $uid,
			'url' => $url,
			'sig' => $sig,
		]);
	}

	/** An http(s) image not on tt-rss's own origin (whose images, its cache, stay as they are). */
	private static function remote($url) {
		$parts = parse_url(strpos($url, '//') === 0 ? 'https:' . $url : $url);
		if (!$parts || empty($parts['host']) || !in_array(strtolower($parts['scheme'] ?? ''), ['http', 'https'], true)) {
			return false;
		}
		$self = parse_url(self::self_url());
		return !($self && strtolower($self['host'] ?? '') === strtolower($parts['host'])
			&& ($self['port'] ?? null) === ($parts['port'] ?? null));
	}

	/**
	 * Only remote http(s) images go through the proxy, and only those it would fetch: not one whose
	 * address is refused (not a public address, another port, credentials, an odd spelling),
	 * checked here without DNS; a name is resolved when the image is asked for. A refused image
	 * stays as the article has it, unsigned and not in `reader_images`.
	 */
	private static function proxiable($url) {
		return self::remote($url) && !is_string(static::fetch_target($url));
	}

	/**
	 * The candidates of a srcset as the HTML parser reads them: a URL is a run of non-whitespace
	 * (commas inside it stay, trailing ones end it), its descriptors run to the next comma. tt-rss's
	 * sanitizer writes srcset joined by "," without a space (RSSUtils::encode_srcset, both
	 * versions): split on ", " the second candidate stayed in the first one's descriptor, unsigned.
	 * @return array<int, array{0: string, 1: string}> [url, descriptors]
	 */
	private static function srcset_candidates($srcset) {
		$out = [];
		$n = strlen($srcset);
		$i = 0;
		while ($i < $n) {
			while ($i < $n && (ctype_space($srcset[$i]) || $srcset[$i] === ',')) $i++;
			$start = $i;
			while ($i < $n && !ctype_space($srcset[$i])) $i++;
			$url = substr($srcset, $start, $i - $start);
			if ($url === '') break;
			$descriptors = '';
			if (substr($url, -1) === ',') {
				$url = rtrim($url, ',');
			} else {
				$start = $i;
				while ($i < $n && $srcset[$i] !== ',') $i++;
				$descriptors = trim(substr($srcset, $start, $i - $start));
			}
			$out[] = [$url, $descriptors];
		}
		return $out;
	}

	/**
	 * The article's images rewritten to signed proxy URLs: img src and srcset, source srcset (in a
	 * picture), a video's poster; and signed, not rewritten, the thumbnail tt-rss names as the
	 * flavor image of a YouTube embed. The content reaching this hook is the user's own article,
	 * already through tt-rss's sanitizer: a URL is signed only because it appears there.
	 */
	private function proxy_images($html, $uid) {
		if (!preg_match('/<(img|source|video|iframe)\b/i', $html)) return $html;
		$doc = new DOMDocument();
		if (!@$doc->loadHTML('<?xml encoding="UTF-8"><html><body>' . $html . '</body></html>', LIBXML_NONET)) {
			return $html;
		}
		$key = $this->user_key();
		$xpath = new DOMXPath($doc);
		$changed = false;
		foreach ($xpath->query('//img[@src]') as $img) {
			$src = trim($img->getAttribute('src'));
			if (self::proxiable($src)) {
				$img->setAttribute('src', $this->proxied_url($src, $uid, $key));
				$changed = true;
			}
		}
		foreach ($xpath->query('//img[@srcset] | //source[@srcset]') as $el) {
			$candidates = [];
			foreach (self::srcset_candidates($el->getAttribute('srcset')) as [$url, $descriptors]) {
				if (self::proxiable($url)) {
					$url = $this->proxied_url($url, $uid, $key);
					$changed = true;
				}
				$candidates[] = $descriptors === '' ? $url : $url . ' ' . $descriptors;
			}
			$el->setAttribute('srcset', implode(', ', $candidates));
		}
		foreach ($xpath->query('//video[@poster]') as $video) {
			$poster = trim($video->getAttribute('poster'));
			if (self::proxiable($poster)) {
				$video->setAttribute('poster', $this->proxied_url($poster, $uid, $key));
				$changed = true;
			}
		}
		// tt-rss names https://img.youtube.com/vi/<id>/hqdefault.jpg as such an article's image.
		foreach ($xpath->query('//iframe[contains(@src, "youtube.com/embed/")]') as $frame) {
			if (preg_match('/\/embed\/([\w-]+)/', $frame->getAttribute('src'), $m)) {
				$this->proxied_url('https://img.youtube.com/vi/' . $m[1] . '/hqdefault.jpg', $uid, $key);
			}
		}
		if (!$changed) return $html;
		$out = '';
		$body = $doc->getElementsByTagName('body')->item(0);
		if (!$body) return $html;
		foreach ($body->childNodes as $node) $out .= $doc->saveHTML($node);
		return $out;
	}

	/**
	 * The stored body of one of the user's articles, or ''. An API row's `id` is the article's
	 * ttrss_entries id (ref_id), not the user's int_id: the two agree only on a young server.
	 */
	private static function stored_content($id, $uid) {
		$sth = Db::pdo()->prepare('SELECT e.content FROM ttrss_entries e
			JOIN ttrss_user_entries ue ON ue.ref_id = e.id
			WHERE ue.ref_id = ? AND ue.owner_uid = ?');
		$sth->execute([(int) $id, $uid]);
		$content = $sth->fetchColumn();
		return is_string($content) ? $content : '';
	}

	/** The image enclosures of one of the user's articles (by its ttrss_entries id, as stored_content). */
	private static function image_enclosures($id, $uid) {
		$sth = Db::pdo()->prepare("SELECT e.content_url FROM ttrss_enclosures e
			JOIN ttrss_user_entries ue ON ue.ref_id = e.post_id
			WHERE ue.ref_id = ? AND ue.owner_uid = ? AND e.content_type LIKE 'image/%'");
		$sth->execute([(int) $id, $uid]);
		return $sth->fetchAll(PDO::FETCH_COLUMN);
	}

	/**
	 * getHeadlines (`headline`) and getArticle (`article`) rows, when the app asks: the body's images
	 * rewritten, and `reader_images` mapping every URL signed for the row (body and image
	 * enclosures) to its proxy address, from which the app takes the flavor image (2021's tt-rss
	 * picks it only after this hook).
	 */
	function hook_render_article_api($params) {
		$which = isset($params['headline']) ? 'headline' : 'article';
		$row = $params[$which];
		$uid = isset($_SESSION['uid']) ? (int) $_SESSION['uid'] : 0;
		if (empty($_REQUEST[self::IMAGE_FLAG]) || $uid <= 0 || !is_array($row)) {
			return $row;
		}
		$this->signed = [];
		if (!empty($row['content']) && is_string($row['content'])) {
			$row['content'] = $this->proxy_images($row['content'], $uid);
		} elseif (isset($row['id'])) {
			// A row without its body (a list): the body's images are signed all the same, as tt-rss
			// picks the flavor image from the stored body.
			$this->proxy_images(self::stored_content($row['id'], $uid), $uid);
		}
		if (isset($row['id'])) {
			foreach (self::image_enclosures($row['id'], $uid) as $url) {
				if (self::proxiable($url)) $this->proxied_url($url, $uid, $this->user_key());
			}
		}
		// The current tt-rss works out the flavor image before this hook (2021's after it, from the
		// body and enclosures signed above): signed as it names it.
		$flavor = isset($row['flavor_image']) && is_string($row['flavor_image']) ? trim($row['flavor_image']) : '';
		if ($flavor !== '' && self::proxiable($flavor)) $this->proxied_url($flavor, $uid, $this->user_key());
		$row['reader_images'] = (object) $this->signed;
		// The article's page, for full text: signed only where the page proxy would fetch it.
		$link = isset($row['link']) && is_string($row['link']) ? trim($row['link']) : '';
		if ($link !== '' && self::proxiable($link)) {
			$row[self::PAGE_FIELD] = self::proxy_address(self::PAGE_METHOD, $uid, $link,
				self::page_signature($this->user_key(), $uid, $link));
		}
		// The plugin's release, for the app to say when the two differ (src/lib/pwa/plugin-version.ts).
		$row['reader_version'] = self::VERSION;
		return $row;
	}

	private static function refuse($status, $reason) {
		http_response_code($status);
		header('Content-Type: text/plain; charset=utf-8');
		header('Cache-Control: no-store');
		header('X-Content-Type-Options: nosniff');
		print $reason . "\n";
	}

	/**
	 * A public method's signed query: [url, uid, sig, the uid's stored key or null]. The method
	 * checks the signature of its own kind (image_signature, page_signature) with the key.
	 */
	private static function signed_query() {
		$url = isset($_GET['url']) && is_string($_GET['url']) ? $_GET['url'] : '';
		$uid = isset($_GET['uid']) && ctype_digit((string) $_GET['uid']) ? (int) $_GET['uid'] : 0;
		$sig = isset($_GET['sig']) && is_string($_GET['sig']) ? $_GET['sig'] : '';
		return [$url, $uid, $sig, $uid > 0 && $url !== '' ? self::stored_key($uid) : null];
	}

	/** public.php?op=pluginhandler&plugin=reader&pmethod=image: one signed image, or a refusal. */
	function image() {
		[$url, $uid, $sig, $key] = self::signed_query();
		if (!$key || !hash_equals(self::image_signature($key, $uid, $url), $sig)) {
			self::refuse(403, 'Not an image address this server handed out.');
			return;
		}
		if (!self::remote($url)) {
			self::refuse(403, 'Not a remote image.');
			return;
		}

		$fetched = self::fetch_remote($url, static::IMAGE_MAX_BYTES, static::IMAGE_TIMEOUT,
			'image/avif,image/webp,image/png,image/*;q=0.8', 'image');
		if (isset($fetched['refused'])) {
			self::refuse($fetched['status'], $fetched['refused']);
			return;
		}
		$data = $fetched['body'];
		$type = strtolower(trim(explode(';', (string) $fetched['type'])[0]));
		if (!in_array($type, self::IMAGE_TYPES, true)) {
			self::refuse(415, 'Not an image.');
			return;
		}
		header('Content-Type: ' . $type);
		// Unless 2021's ENABLE_GZIP_OUTPUT compresses the output (its length is then another).
		if (!in_array('ob_gzhandler', ob_list_handlers(), true)) header('Content-Length: ' . strlen($data));
		// The signed URL names one remote image: the same answer for as long as it is kept.
		header('Cache-Control: private, max-age=604800');
		header('X-Content-Type-Options: nosniff');
		header("Content-Security-Policy: default-src 'none'; sandbox");
		header('Cross-Origin-Resource-Policy: same-origin');
		print $data;
	}

	/**
	 * A refusal of the page method, as JSON ({error, message}) the app reads: `error` one of
	 * refused, too_large, timeout, unreachable, not_html (the app words each one for the reader).
	 */
	private static function refuse_page($status, $message) {
		$codes = [403 => 'refused', 413 => 'too_large', 504 => 'timeout', 415 => 'not_html'];
		http_response_code($status);
		header('Content-Type: application/json; charset=utf-8');
		header('Cache-Control: no-store');
		header('X-Content-Type-Options: nosniff');
		print json_encode(['error' => $codes[$status] ?? 'unreachable', 'message' => $message]);
	}

	/**
	 * public.php?op=pluginhandler&plugin=reader&pmethod=page: one signed article page, as JSON
	 * {url, html, images} (see the comment at the top), or a refusal (refuse_page). Served as JSON
	 * with a sandboxing CSP, never as HTML: opened in a tab it runs nothing on tt-rss's origin.
	 */
	function page() {
		[$url, $uid, $sig, $key] = self::signed_query();
		if (!$key || !hash_equals(self::page_signature($key, $uid, $url), $sig)) {
			self::refuse_page(403, 'Not a page address this server handed out.');
			return;
		}
		if (!self::remote($url)) {
			self::refuse_page(403, 'Not a remote page.');
			return;
		}
		$fetched = self::fetch_remote($url, static::PAGE_MAX_BYTES, static::PAGE_TIMEOUT,
			'text/html,application/xhtml+xml;q=0.9', 'page');
		if (isset($fetched['refused'])) {
			self::refuse_page($fetched['status'], $fetched['refused']);
			return;
		}
		$type = strtolower(trim(explode(';', (string) $fetched['type'])[0]));
		if (!in_array($type, self::PAGE_TYPES, true)) {
			self::refuse_page(415, 'Not a web page.');
			return;
		}
		$html = self::utf8_page($fetched['body'], (string) $fetched['type']);
		$images = [];
		foreach (self::page_image_urls($html, $fetched['url']) as $image) {
			if (count($images) >= static::PAGE_MAX_IMAGES) break;
			if (self::proxiable($image)) {
				$images[$image] = self::proxy_address(self::IMAGE_METHOD, $uid, $image,
					self::image_signature($key, $uid, $image));
			}
		}
		$json = json_encode(['url' => $fetched['url'], 'html' => $html, 'images' => (object) $images],
			JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE);
		if (!is_string($json)) {
			self::refuse_page(502, 'The page could not be read.');
			return;
		}
		header('Content-Type: application/json; charset=utf-8');
		header('Cache-Control: no-store');
		header('X-Content-Type-Options: nosniff');
		header("Content-Security-Policy: default-src 'none'; sandbox");
		header('Cross-Origin-Resource-Policy: same-origin');
		print $json;
	}

	/**
	 * The page's text as UTF-8: its charset from the Content-Type header, else from a <meta> in
	 * its first 2 KB, else UTF-8 (what JSON carries; bytes that are not UTF-8 become U+FFFD).
	 */
	private static function utf8_page($body, $content_type) {
		$charset = '';
		if (preg_match('/charset\s*=\s*["\']?([\w.:-]+)/i', $content_type, $m)) {
			$charset = $m[1];
		} elseif (preg_match('/<meta[^>]+charset\s*=\s*["\']?([\w.:-]+)/i', substr($body, 0, 2048), $m)) {
			$charset = $m[1];
		}
		$charset = strtoupper($charset);
		if ($charset === '' || $charset === 'UTF-8' || $charset === 'UTF8' || !function_exists('mb_convert_encoding')) {
			return $body;
		}
		$encodings = array_map('strtoupper', mb_list_encodings());
		if (!in_array($charset, $encodings, true)) return $body;
		return mb_convert_encoding($body, 'UTF-8', $charset);
	}

	/**
	 * Every image address a page names where an extraction could show it, absolute against the page
	 * (its <base>, else its address): the src and srcset of img and source, a video's poster, and
	 * on img, picture, figure and source any attribute naming an image file (lazy loading's data-src,
	 * data-srcset, data-original…, which Readability turns into src and srcset).
	 * @return string[]
	 */
	private static function page_image_urls($html, $page_url) {
		$doc = new DOMDocument();
		if (!@$doc->loadHTML('<?xml encoding="UTF-8">' . $html, LIBXML_NONET | LIBXML_COMPACT)) return [];
		$xpath = new DOMXPath($doc);
		$base = $page_url;
		foreach ($xpath->query('//base[@href]') as $el) {
			$base = self::absolute_url($page_url, $el->getAttribute('href'));
			break;
		}
		$found = [];
		foreach ($xpath->query('//img | //picture | //figure | //source | //video[@poster]') as $el) {
			foreach ($el->attributes as $attr) {
				$name = strtolower($attr->name);
				$value = trim($attr->value);
				if ($value === '' || strpos($value, 'data:') === 0) continue;
				$tag = $el->nodeName;
				$named = $tag === 'video' ? $name === 'poster'
					: ($name === 'srcset' || ($name === 'src' && ($tag === 'img' || $el->parentNode->nodeName === 'picture')));
				if ($tag === 'video' && !$named) continue;
				if (!$named && !preg_match('/\.(jpe?g|png|webp|gif|avif)/i', $value)) continue;
				foreach (self::srcset_candidates($value) as [$candidate]) {
					$found[self::absolute_url($base, $candidate)] = true;
				}
			}
		}
		return array_keys($found);
	}

	/**
	 * `$ref` resolved against the absolute http(s) address `$base` as a browser resolves it (RFC 3986:
	 * scheme-relative, absolute path, query, relative path with dot segments removed). An address
	 * with its own scheme stays as it is.
	 */
	private static function absolute_url($base, $ref) {
		$ref = trim($ref);
		if (preg_match('~^[a-z][a-z0-9+.-]*:~i', $ref)) return $ref;
		if (!preg_match('~^([a-z][a-z0-9+.-]*:)(//[^/?#]*)?([^?#]*)(\?[^#]*)?~i', $base, $b)) return $ref;
		$scheme = $b[1];
		$authority = isset($b[2]) ? $b[2] : '';
		$path = isset($b[3]) && $b[3] !== '' ? $b[3] : '/';
		$query = isset($b[4]) ? $b[4] : '';
		$hash = strpos($ref, '#');
		if ($hash !== false) $ref = substr($ref, 0, $hash);
		if (strpos($ref, '//') === 0) return $scheme . $ref;
		if ($ref === '') return $scheme . $authority . $path . $query;
		if ($ref[0] === '?') return $scheme . $authority . $path . $ref;
		$q = strpos($ref, '?');
		$ref_path = $q === false ? $ref : substr($ref, 0, $q);
		$ref_query = $q === false ? '' : substr($ref, $q);
		$merged = $ref_path[0] === '/' ? $ref_path : substr($path, 0, strrpos($path, '/') + 1) . $ref_path;
		$out = [];
		$segments = explode('/', $merged);
		foreach ($segments as $i => $segment) {
			$last = $i === count($segments) - 1;
			if ($segment === '.') {
				if ($last) $out[] = '';
			} elseif ($segment === '..') {
				if (count($out) > 1) array_pop($out);
				if ($last) $out[] = '';
			} else {
				$out[] = $segment;
			}
		}
		return $scheme . $authority . implode('/', $out) . $ref_query;
	}

	/**
	 * The resource at `$url` (an image, a page: `$noun` in the refusals), or why not:
	 * ['body' => bytes, 'type' => Content-Type, 'url' => the address it ended at] or
	 * ['refused' => reason, 'status' => HTTP status]. Each address, the first and every redirect's
	 * target, is checked (fetch_target, then resolved_addresses) before anything connects to it,
	 * and the connection goes to the addresses checked; curl follows no redirect by itself. The
	 * one rule for everything the plugin fetches (images and pages alike).
	 */
	private static function fetch_remote($url, $max_bytes, $timeout, $accept, $noun) {
		$deadline = microtime(true) + $timeout;
		$late = ['refused' => 'The ' . $noun . ' could not be fetched in time.', 'status' => 504];
		for ($hop = 0; ; $hop++) {
			$target = static::fetch_target($url);
			if (is_string($target)) return ['refused' => 'Refused: ' . $target . '.', 'status' => 403];
			$addresses = self::resolved_addresses($target);
			if (is_string($addresses)) return ['refused' => 'Refused: ' . $addresses . '.', 'status' => 403];
			$left = (int) ceil($deadline - microtime(true));
			if ($left <= 0) return $late;
			$reply = static::transport([
				'url' => $target['url'],
				'host' => $target['host'],
				'port' => $target['port'],
				'addresses' => $addresses,
				'followlocation' => false,
				'max_size' => $max_bytes,
				'timeout' => $left,
				'accept' => $accept,
			]);
			if (!empty($reply['too_large'])) return ['refused' => 'The ' . $noun . ' is too large.', 'status' => 413];
			if (!empty($reply['timeout'])) return $late;
			if (!empty($reply['error'])) return ['refused' => 'The ' . $noun . ' could not be fetched.', 'status' => 502];
			$status = (int) $reply['status'];
			if (in_array($status, [301, 302, 303, 307, 308], true)) {
				$location = isset($reply['location']) && is_string($reply['location']) ? $reply['location'] : '';
				if ($location === '' || $hop >= static::IMAGE_MAX_REDIRECTS) {
					return ['refused' => 'The ' . $noun . ' could not be fetched (redirects).', 'status' => 502];
				}
				$url = $location;
				continue;
			}
			$body = isset($reply['body']) ? (string) $reply['body'] : '';
			if ($status !== 200 || $body === '') {
				return ['refused' => 'The ' . $noun . ' could not be fetched.', 'status' => 502];
			}
			if (strlen($body) > $max_bytes) return ['refused' => 'The ' . $noun . ' is too large.', 'status' => 413];
			return ['body' => $body, 'type' => isset($reply['type']) ? (string) $reply['type'] : '',
				'url' => $target['url']];
		}
	}

	/**
	 * One HTTP request to addresses already checked, through curl: to `addresses` only (pinned with
	 * CURLOPT_RESOLVE; a literal address needs none), no proxy (it would resolve the name again),
	 * no redirect followed, http(s) only, at most `max_size` bytes, within `timeout` seconds.
	 * @param array{url: string, host: string, port: int, addresses: string[], followlocation: bool,
	 *   max_size: int, timeout: int, accept: string} $request
	 * @return array{status?: int, type?: string, location?: string, body?: string, error?: string,
	 *   too_large?: bool, timeout?: bool}
	 */
	protected static function transport(array $request) {
		if (!function_exists('curl_init')) return ['error' => 'php-curl is not installed'];
		$ch = curl_init();
		$body = '';
		$too_large = false;
		$max = $request['max_size'];
		$pin = [];
		foreach ($request['addresses'] as $address) {
			$pin[] = strpos($address, ':') !== false ? '[' . $address . ']' : $address;
		}
		$options = [
			CURLOPT_URL => $request['url'],
			CURLOPT_FOLLOWLOCATION => $request['followlocation'],
			CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
			CURLOPT_REDIR_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
			CURLOPT_PROXY => '',
			CURLOPT_NOPROXY => '*',
			CURLOPT_CONNECTTIMEOUT => min(10, $request['timeout']),
			CURLOPT_TIMEOUT => $request['timeout'],
			CURLOPT_MAXFILESIZE => $max,
			CURLOPT_ENCODING => '',
			CURLOPT_USERAGENT => 'Mozilla/5.0 (compatible; tt-rss Reader proxy)',
			CURLOPT_HTTPHEADER => ['Accept: ' . $request['accept']],
			CURLOPT_HEADER => false,
			CURLOPT_WRITEFUNCTION => function ($handle, $chunk) use (&$body, &$too_large, $max) {
				if (strlen($body) + strlen($chunk) > $max) {
					$too_large = true;
					return 0;
				}
				$body .= $chunk;
				return strlen($chunk);
			},
		];
		if (filter_var($request['host'], FILTER_VALIDATE_IP) === false) {
			$options[CURLOPT_RESOLVE] = [$request['host'] . ':' . $request['port'] . ':' . implode(',', $pin)];
		}
		curl_setopt_array($ch, $options);
		$ok = curl_exec($ch);
		$errno = curl_errno($ch);
		$reply = [
			'status' => (int) curl_getinfo($ch, CURLINFO_RESPONSE_CODE),
			'type' => (string) curl_getinfo($ch, CURLINFO_CONTENT_TYPE),
			'location' => (string) curl_getinfo($ch, CURLINFO_REDIRECT_URL),
			'body' => $body,
		];
		$connected = (string) curl_getinfo($ch, CURLINFO_PRIMARY_IP);
		curl_close($ch);
		if ($too_large || $errno === 63 /* CURLE_FILESIZE_EXCEEDED */) return ['too_large' => true];
		if ($errno === 28 /* CURLE_OPERATION_TIMEDOUT */) return ['timeout' => true];
		if ($ok === false || $errno !== 0) return ['error' => 'curl error ' . $errno];
		// Belt and braces: the connection went where the check said.
		$pinned = array_map('inet_pton', $request['addresses']);
		if ($connected === '' || !in_array(@inet_pton($connected), $pinned, true)) {
			return ['error' => 'connected to an address that was not checked'];
		}
		return $reply;
	}

	/**
	 * The parts of an image address the proxy may fetch, or why not (a string). No DNS here: a
	 * literal address is judged at once, a name when resolved_addresses resolves it.
	 * - http or https (a protocol-relative `//host` as https), on port 80 or 443;
	 * - no credentials, and nothing in the authority but a host and a port, so that curl and this
	 *   check cannot read two different hosts out of it (`http://a.example\@127.0.0.1/`);
	 * - an IPv4 address only as four decimal numbers: `127.1`, `0x7f.0.0.1`, `2130706433`,
	 *   `017700000001` are what resolvers read as 127.0.0.1, so they are refused as spelled;
	 * - a name with a dot, not `localhost` or under `.localhost`; non-ASCII names as punycode.
	 * @return array{url: string, scheme: string, host: string, port: int, address: ?string}|string
	 */
	protected static function fetch_target($url) {
		if (!is_string($url)) return 'not an address';
		$url = trim($url);
		if (strpos($url, '//') === 0) $url = 'https:' . $url;
		if (preg_match('/[\x00-\x1f\x7f]/', $url)) return 'control characters in the address';
		if (!preg_match('~^(https?)://([^/?#\\\\]*)([/?#].*)?$~i', $url, $m)) {
			return 'not an http(s) address';
		}
		$scheme = strtolower($m[1]);
		$authority = $m[2];
		$rest = isset($m[3]) ? $m[3] : '';
		if (strpos($authority, '@') !== false) return 'credentials in the address';
		if (preg_match('/^\[([0-9a-fA-F:.]+)\](?::([0-9]{1,5}))?$/', $authority, $a)) {
			$bin = @inet_pton($a[1]);
			if ($bin === false || strlen($bin) !== 16) return 'not an IPv6 address';
			$host = inet_ntop($bin);
			$address = $host;
		} elseif (preg_match('/^([^:\[\]]+)(?::([0-9]{1,5}))?$/', $authority, $a)) {
			$host = $a[1];
			if (preg_match('/[^\x21-\x7e]/', $host)) {
				$ascii = function_exists('idn_to_ascii') && defined('INTL_IDNA_VARIANT_UTS46')
					? @idn_to_ascii($host, IDNA_NONTRANSITIONAL_TO_ASCII, INTL_IDNA_VARIANT_UTS46) : false;
				if (!is_string($ascii) || $ascii === '') return 'a host name that cannot be spelled in ASCII';
				$host = $ascii;
			}
			$host = strtolower($host);
			if (substr($host, -1) === '.') $host = substr($host, 0, -1);
			if (!preg_match('/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/', $host)) return 'not a host name';
			$labels = explode('.', $host);
			$last = end($labels);
			$address = null;
			if (preg_match('/^(0x[0-9a-f]*|[0-9]+)$/', $last)) {
				// Numeric: an IPv4 address, which only the plain dotted-quad spelling may name.
				if (filter_var($host, FILTER_VALIDATE_IP, FILTER_FLAG_IPV4) === false
						|| long2ip(ip2long($host)) !== $host) {
					return 'an IPv4 address spelled other than as four decimal numbers';
				}
				$address = $host;
			} elseif ($last === 'localhost') {
				return 'localhost';
			} elseif (count($labels) < 2) {
				return 'a host name without a domain';
			}
		} else {
			return 'not a host and port';
		}
		$port = isset($a[2]) && $a[2] !== '' ? (int) $a[2] : ($scheme === 'https' ? 443 : 80);
		if (!in_array($port, static::IMAGE_PORTS, true)) return 'port ' . $port;
		if ($address !== null) {
			$why = static::address_refusal($address);
			if ($why !== null) return $address . ' is ' . $why;
		}
		$hash = strpos($rest, '#');
		if ($hash !== false) $rest = substr($rest, 0, $hash);
		if ($rest === '' || $rest[0] !== '/') $rest = '/' . $rest;
		$url_host = $address !== null && strpos($address, ':') !== false ? '[' . $address . ']' : $host;
		$default = $scheme === 'https' ? 443 : 80;
		return [
			'url' => $scheme . '://' . $url_host . ($port === $default ? '' : ':' . $port) . str_replace(' ', '%20', $rest),
			'scheme' => $scheme,
			'host' => $host,
			'port' => $port,
			'address' => $address,
		];
	}

	/**
	 * The addresses to connect to for a target of fetch_target, or why not (a string): a literal
	 * address itself; a name's every address (A and AAAA), each of which must be acceptable.
	 * @param array{host: string, address: ?string} $target
	 * @return string[]|string
	 */
	private static function resolved_addresses(array $target) {
		if ($target['address'] !== null) return [$target['address']];
		$found = static::resolve_host($target['host']);
		if (!$found) return $target['host'] . ' does not resolve';
		foreach ($found as $ip) {
			$why = static::address_refusal($ip);
			if ($why !== null) return $target['host'] . ' resolves to a ' . $why . ' address';
		}
		return $found;
	}

	/**
	 * Every address of a host name, IPv4 and IPv6, as the system resolves it (getaddrinfo: the
	 * hosts file, then DNS). Without PHP's sockets extension: gethostbynamel (the same for IPv4)
	 * and DNS's AAAA records.
	 * @return string[]
	 */
	protected static function resolve_host($host) {
		$found = [];
		if (function_exists('socket_addrinfo_lookup')) {
			$infos = @socket_addrinfo_lookup($host, null, ['ai_socktype' => SOCK_STREAM]);
			foreach (is_array($infos) ? $infos : [] as $info) {
				$addr = socket_addrinfo_explain($info)['ai_addr'];
				$ip = isset($addr['sin6_addr']) ? $addr['sin6_addr'] : (isset($addr['sin_addr']) ? $addr['sin_addr'] : null);
				if (is_string($ip)) $found[] = $ip;
			}
		} else {
			$v4 = @gethostbynamel($host);
			if (is_array($v4)) $found = $v4;
			$v6 = @dns_get_record($host, DNS_AAAA);
			foreach (is_array($v6) ? $v6 : [] as $record) {
				if (!empty($record['ipv6'])) $found[] = $record['ipv6'];
			}
		}
		return array_values(array_unique($found));
	}

	/**
	 * Null for a public unicast address (or one in a network the administrator allowed, see
	 * IMAGE_ALLOW_ENV); otherwise what kind of address it is.
	 */
	protected static function address_refusal($ip) {
		$bin = @inet_pton((string) $ip);
		if ($bin === false) return 'not an IP address';
		if (self::allowed_by_administrator($bin)) return null;
		if (strlen($bin) === 4) {
			foreach (self::REFUSED_IPV4 as $range) {
				if (self::in_network($bin, $range[0], $range[1])) return $range[2];
			}
			return null;
		}
		// IPv4 inside IPv6: judged as that IPv4 address.
		foreach ([['::ffff:0:0', 96, 'IPv4-mapped'], ['64:ff9b::', 96, 'NAT64']] as $form) {
			if (self::in_network($bin, $form[0], $form[1])) {
				$why = self::address_refusal(inet_ntop(substr($bin, 12)));
				return $why === null ? null : $form[2] . ' ' . $why;
			}
		}
		foreach (self::NAMED_IPV6 as $range) {
			if (self::in_network($bin, $range[0], $range[1])) return $range[2];
		}
		if (!self::in_network($bin, '2000::', 3)) return 'reserved IPv6';
		foreach (self::REFUSED_IPV6 as $range) {
			if (self::in_network($bin, $range[0], $range[1])) return $range[2];
		}
		return null;
	}

	/** Is the address (inet_pton's bytes) in one of the networks of IMAGE_ALLOW_ENV? */
	private static function allowed_by_administrator($bin) {
		$list = getenv(self::IMAGE_ALLOW_ENV);
		if (!is_string($list) || trim($list) === '') return false;
		foreach (preg_split('/[\s,]+/', trim($list)) as $cidr) {
			$parts = explode('/', $cidr, 2);
			$net = @inet_pton($parts[0]);
			if ($net === false || strlen($net) !== strlen($bin)) continue;
			$bits = isset($parts[1]) && ctype_digit($parts[1]) ? (int) $parts[1] : strlen($net) * 8;
			if ($bits <= strlen($net) * 8 && self::in_network($bin, $parts[0], $bits)) return true;
		}
		return false;
	}

	/** Does the address (inet_pton's bytes) lie in network/bits? */
	private static function in_network($bin, $network, $bits) {
		$net = inet_pton($network);
		if (strlen($net) !== strlen($bin)) return false;
		$whole = intdiv($bits, 8);
		if (substr($bin, 0, $whole) !== substr($net, 0, $whole)) return false;
		$rest = $bits % 8;
		if ($rest === 0) return true;
		$mask = (0xff << (8 - $rest)) & 0xff;
		return (ord($bin[$whole]) & $mask) === (ord($net[$whole]) & $mask);
	}
}
