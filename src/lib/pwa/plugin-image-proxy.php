<?php
// Drives package/init.php's image proxy for plugin-image-proxy.spec.ts, against one tt-rss
// version's own Plugin class, with stand-ins for the rest of tt-rss (from the review's repro of
// issue 55): a user 7 whose signing key is stored, a resolver that answers from a table (no DNS),
// and either a transport that records what it is asked for (no connection at all) or, with
// `real`, the plugin's own curl transport to the test's servers on loopback. The server's own
// UrlHelper, renamed, shows what its validate() lets through (`validate_2021` / `validate_current`).
// With `"method": "page"` it drives the full-text page method instead (plugin-page.spec.ts): each
// URL is an article's link, signed as `reader_page`, and the stand-in transport answers `page_body`.
//
//   php plugin-image-proxy.php <tt-rss>/classes/Plugin.php package/init.php <tt-rss>/…/UrlHelper.php
//       debian|current '{"urls": [...], "hosts": {...}, "redirects": {...}, "allow": "...", ...}'
$plugin_base = $argv[1];
$init = $argv[2];
$server_urlhelper = $argv[3];
$server = $argv[4];
$config = json_decode($argv[5], true);
$urls = $config['urls'];

$GLOBALS['key'] = str_repeat('ab', 32);
class FakeStatement {
	function execute($args) { return true; }
	function fetchAll($mode = 0) { return []; }
	function fetch() { return ['content' => serialize(['image_key' => $GLOBALS['key']])]; }
	function fetchColumn() { return ''; }
}
class Db { static function pdo() { return new class { function prepare($sql) { return new FakeStatement(); } }; } }
class PluginHost {
	const HOOK_MAIN_TOOLBAR_BUTTON = 'hook_main_toolbar_button';
	const HOOK_PREFS_TAB = 'hook_prefs_tab';
	const HOOK_RENDER_ARTICLE_API = 'hook_render_article_api';
	public $storage = [];
	function add_hook($type, $sender, $priority = 50) {}
	function get($sender, $name, $default_value = false) { return $GLOBALS['key']; }
	function set($sender, $name, $value) {}
}
function __($t) { return $t; }
function get_pref($n) { return true; }
function get_self_url_prefix() { return 'https://rss.test/tt-rss'; }
function clean($s) { return is_array($s) ? array_map('trim', $s) : trim(strip_tags((string) $s)); }
eval('?>' . str_replace('class UrlHelper ', 'class UrlHelperServer ', file_get_contents($server_urlhelper)));

require_once $plugin_base;
require_once $init;

// The administrator's allowed networks, as tt-rss's config.php sets them.
putenv('READER_IMAGE_PROXY_ALLOW=' . ($config['allow'] ?? ''));
$GLOBALS['config'] = $config;
$ports = json_encode(array_merge([80, 443], $config['ports'] ?? []));
$max_bytes = (int) ($config['max_bytes'] ?? 10485760);
$page_bytes = (int) ($config['max_bytes'] ?? 5242880);
$page_timeout = (int) ($config['timeout'] ?? 15);
eval('class ReaderUnderTest extends Reader {
	const IMAGE_PORTS = ' . $ports . ';
	const IMAGE_MAX_BYTES = ' . $max_bytes . ';
	const PAGE_MAX_BYTES = ' . $page_bytes . ';
	const PAGE_TIMEOUT = ' . $page_timeout . ';
	public static $asked = [];
	public static $resolved = [];
	protected static function resolve_host($host) {
		self::$resolved[] = $host;
		if (!isset($GLOBALS["config"]["hosts"])) return parent::resolve_host($host);
		return $GLOBALS["config"]["hosts"][$host] ?? [];
	}
	protected static function transport(array $request) {
		self::$asked[] = $request;
		if (!empty($GLOBALS["config"]["real"])) return parent::transport($request);
		$location = $GLOBALS["config"]["redirects"][$request["url"]] ?? null;
		if ($location !== null) return ["status" => 302, "type" => "text/html", "location" => $location, "body" => ""];
		if (isset($GLOBALS["config"]["page_body64"])) $GLOBALS["config"]["page_body"] = base64_decode($GLOBALS["config"]["page_body64"]);
		if (isset($GLOBALS["config"]["page_body"])) {
			return ["status" => 200, "type" => $GLOBALS["config"]["page_type"] ?? "text/html; charset=utf-8",
				"location" => "", "body" => $GLOBALS["config"]["page_body"]];
		}
		return ["status" => 200, "type" => "image/png", "location" => "", "body" => "\x89PNG fake"];
	}
}');

$host = new PluginHost();
$plugin = new ReaderUnderTest();
$plugin->init($host);
$_SESSION['uid'] = 7;
$_REQUEST['reader_image_proxy'] = 1;

/** What the server's own UrlHelper lets through (for literal addresses only: no DNS asked). */
function server_lets_through($url, $server) {
	if ($server === 'debian') {
		// 2021's UrlHelper::fetch refuses a URL only when validate($url, true) does, or when
		// gethostbyname() of its host starts with "127." (classes/urlhelper.php, fetch()).
		return ($v = UrlHelperServer::validate($url, true)) !== false
			&& strpos(gethostbyname(parse_url($v, PHP_URL_HOST)), '127.') !== 0;
	}
	// The current UrlHelper::fetch: validate($url, true), whose has_disallowed_ip resolves names.
	return UrlHelperServer::validate($url, true) !== false;
}

$page = ($config['method'] ?? 'image') === 'page';
// `call` asks the other method with this signature (neither signs for the other).
$call = $config['call'] ?? ($page ? 'page' : 'image');
$out = [];
foreach ($urls as $url) {
	$html = $page ? '<p>A teaser.</p>' : '<p>news</p><img src="' . htmlspecialchars($url) . '">';
	$article = ['id' => 1, 'content' => $html];
	if ($page) $article['link'] = $url;
	$row = $plugin->hook_render_article_api(['article' => $article]);
	$images = $page ? array_filter([$url => $row['reader_page'] ?? null]) : (array) ($row['reader_images'] ?? []);
	$signed = $images[$url] ?? null;
	// The app's own request for an address the server never signed cannot pass the signature
	// check; `force` signs it here as a feed could not, to show the fetch side's own checks.
	if ($signed === null && !empty($config['force'])) {
		$signed = 'https://rss.test/tt-rss/public.php?' . http_build_query(['op' => 'pluginhandler',
			'plugin' => 'reader', 'pmethod' => $page ? 'page' : 'image', 'uid' => 7, 'url' => $url,
			'sig' => hash_hmac('sha256', ($page ? "page\n" : '') . "7\n" . $url, $GLOBALS['key'])]);
	}
	$status = null;
	$body = null;
	ReaderUnderTest::$asked = [];
	ReaderUnderTest::$resolved = [];
	if ($signed) {
		parse_str(parse_url($signed, PHP_URL_QUERY), $q);
		$_GET = $q;
		ob_start();
		http_response_code(200);
		if ($call === 'page') $plugin->page();
		else $plugin->image();
		$body = ob_get_clean();
		$status = http_response_code();
		if ($call === 'page') $body = json_decode($body, true);
	}
	$entry = [
		'url' => $url,
		'signed' => isset($images[$url]),
		'content' => $row['content'],
		'status' => $status,
		'body' => $status === 200 && $call === 'image' ? base64_encode($body) : $body,
		'row' => $row,
		'fetched' => array_map(function ($o) { return $o['url']; }, ReaderUnderTest::$asked),
		'fetch_options' => ReaderUnderTest::$asked[0] ?? null,
		'resolved' => ReaderUnderTest::$resolved,
	];
	if (!empty($config['compare'])) $entry['validate_' . ($server === 'debian' ? '2021' : 'current')] = server_lets_through($url, $server);
	$out[] = $entry;
}
echo json_encode($out);
