<?php
// The Reader (an offline-first web app for Tiny Tiny RSS), installed as a tt-rss plugin: this folder
// holds the built app, served as static files next to tt-rss, and this class, which adds an
// "Open in Reader" entry to tt-rss's toolbar and preferences. It never changes a setting itself:
// where the account's API access (or, on current tt-rss, its browser-based API access) is off, the
// entry says so and names the setting. Works with Debian's 2021 tt-rss and the current one
// (both: Plugin API 2, hooks added with $host::HOOK_…, hook_main_toolbar_button printing its HTML).
//
// Image proxy (issue 24): when the app asks for it (`reader_image_proxy` in getHeadlines/getArticle),
// HOOK_RENDER_ARTICLE_API rewrites each image of an article the user reads to a same-origin URL,
// public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=…&url=…&sig=…, signed with an HMAC
// key kept per user in tt-rss's plugin storage. The public method `image` fetches only URLs whose
// signature checks out (never an open proxy), only raster images, within a size limit and a
// timeout, so the app's worker keeps a readable response that counts at its true size.

// Opened directly by a browser rather than loaded by tt-rss: nothing to show.
if (!class_exists('Plugin')) {
	http_response_code(404);
	exit;
}

class Reader extends Plugin {
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
		return $method === self::IMAGE_METHOD;
	}

	/** The app's address relative to tt-rss's own pages (index.php, prefs.php): this folder. */
	private function app_url() {
		return basename(dirname(__DIR__)) . '/' . basename(__DIR__) . '/';
	}

	/** A user preference of the signed-in user (get_pref: in 2021's tt-rss and, deprecated, today's). */
	private function pref($name) {
		return get_pref($name);
	}

	/** @return string[] what keeps the app from signing in, as the settings' own labels name it */
	private function missing_access() {
		$missing = [];
		if (!$this->pref('ENABLE_API_ACCESS')) {
			$missing[] = __('Enable API');
		}
		// Only the current tt-rss refuses API calls a browser makes without this second opt-in.
		if (class_exists('Prefs') && defined('Prefs::ENABLE_API_ACCESS_BROWSER')
				&& !$this->pref(Prefs::ENABLE_API_ACCESS_BROWSER)) {
			$missing[] = __('Enable browser-based API access');
		}
		return $missing;
	}

	private function notice($missing) {
		if (!$missing) return '';
		return sprintf('The Reader signs in through the API: turn on %s in Preferences → Preferences, then save.',
			implode(' and ', array_map(function ($label) { return '“' . $label . '”'; }, $missing)));
	}

	function hook_main_toolbar_button() {
		$missing = $this->missing_access();
		$title = $missing ? $this->notice($missing) : 'Open the Reader (works offline)';
		?>
		<a class="reader-open" id="reader-open" style="order: 0; margin: 0 6px; white-space: nowrap"
			href="<?= htmlspecialchars($this->app_url()) ?>" target="_blank" rel="noopener"
			title="<?= htmlspecialchars($title) ?>"><?= htmlspecialchars('Open in Reader') ?><?php
			if ($missing) { ?> <span class="reader-access">(<?= htmlspecialchars('API access off: see Preferences') ?>)</span><?php } ?></a>
		<?php
	}

	function hook_prefs_tab($args) {
		if ($args != 'prefPrefs') return;
		$missing = $this->missing_access();
		?>
		<div dojoType="dijit.layout.AccordionPane" title="<?= htmlspecialchars('Reader') ?>">
			<p><a class="reader-open" href="<?= htmlspecialchars($this->app_url()) ?>" target="_blank"
				rel="noopener"><?= htmlspecialchars('Open in Reader') ?></a> (version <?= htmlspecialchars(self::VERSION) ?>)</p>
			<?php if ($missing) { ?>
				<p class="reader-access"><?= htmlspecialchars($this->notice($missing)) ?></p>
			<?php } else { ?>
				<p class="reader-access"><?= htmlspecialchars('API access is on for this account: the Reader can sign in.') ?></p>
			<?php } ?>
		</div>
		<?php
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
		return $this->signed[$url] = self::self_url() . '/public.php?' . http_build_query([
			'op' => 'pluginhandler',
			'plugin' => 'reader',
			'pmethod' => self::IMAGE_METHOD,
			'uid' => $uid,
			'url' => $url,
			'sig' => self::image_signature($key, $uid, $url),
		]);
	}

	/** Only remote http(s) images go through the proxy; tt-rss's own (its cache) stay as they are. */
	private static function proxiable($url) {
		$parts = parse_url($url);
		if (!$parts || empty($parts['host']) || !in_array(strtolower($parts['scheme'] ?? ''), ['http', 'https'], true)) {
			return false;
		}
		$self = parse_url(self::self_url());
		return !($self && strtolower($self['host'] ?? '') === strtolower($parts['host'])
			&& ($self['port'] ?? null) === ($parts['port'] ?? null));
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
		return $row;
	}

	private static function refuse($status, $reason) {
		http_response_code($status);
		header('Content-Type: text/plain; charset=utf-8');
		header('Cache-Control: no-store');
		header('X-Content-Type-Options: nosniff');
		print $reason . "\n";
	}

	/** public.php?op=pluginhandler&plugin=reader&pmethod=image: one signed image, or a refusal. */
	function image() {
		$url = isset($_GET['url']) && is_string($_GET['url']) ? $_GET['url'] : '';
		$uid = isset($_GET['uid']) && ctype_digit((string) $_GET['uid']) ? (int) $_GET['uid'] : 0;
		$sig = isset($_GET['sig']) && is_string($_GET['sig']) ? $_GET['sig'] : '';
		$key = $uid > 0 && $url !== '' ? self::stored_key($uid) : null;
		if (!$key || !hash_equals(self::image_signature($key, $uid, $url), $sig)) {
			self::refuse(403, 'Not an image address this server handed out.');
			return;
		}
		if (!self::proxiable($url)) {
			self::refuse(403, 'Not a remote image.');
			return;
		}

		$data = UrlHelper::fetch(['url' => $url, 'max_size' => self::IMAGE_MAX_BYTES,
			'timeout' => self::IMAGE_TIMEOUT]);
		$type = isset(UrlHelper::$fetch_last_content_type) ? UrlHelper::$fetch_last_content_type : '';
		if ($type === '' && isset($GLOBALS['fetch_last_content_type'])) $type = $GLOBALS['fetch_last_content_type'];
		$type = strtolower(trim(explode(';', (string) $type)[0]));

		if ($data === false || $data === '' || $data === null) {
			self::refuse(502, 'The image could not be fetched.');
			return;
		}
		if (strlen($data) > self::IMAGE_MAX_BYTES) {
			self::refuse(413, 'The image is too large.');
			return;
		}
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
}
