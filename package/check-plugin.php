<?php
// Loads init.php against a tt-rss version's own Plugin base class, with the smallest stand-ins for
// the rest of tt-rss, and prints what the plugin declares and renders (JSON). Used by
// src/lib/pwa/plugin.spec.ts for Debian's 2021 tt-rss and the current one:
//
//   php package/check-plugin.php <tt-rss>/classes/Plugin.php package/init.php MODE [current]
//
// MODE: api-on (both API settings on), api-off (both off), browser-off (only the browser one off).
// `current` stands in tt-rss's Prefs class, which has the browser setting (2021's has neither).
$plugin_base = $argv[1];
$init = $argv[2];
$mode = $argv[3] ?? 'api-on';
if (($argv[4] ?? '') === 'current') {
	class Prefs {
		const ENABLE_API_ACCESS = 'ENABLE_API_ACCESS';
		const ENABLE_API_ACCESS_BROWSER = 'ENABLE_API_ACCESS_BROWSER';
	}
}

// The database: one image enclosure for every article, and one stored body (for rows without one).
class FakeStatement {
	public function __construct(public string $sql = '') { $GLOBALS['queries'][] = preg_replace('/\s+/', ' ', $sql); }
	function execute($args) { return true; }
	function fetchAll($mode = 0) { return ['https://feeds.test/e.png']; }
	function fetch() { return false; }
	function fetchColumn() { return '<p><img src="https://feeds.test/stored.png"></p>'; }
}
class Db { static function pdo() { return new class { function prepare($sql) { return new FakeStatement($sql); } }; } }
class PluginHost {
	const HOOK_MAIN_TOOLBAR_BUTTON = 'hook_main_toolbar_button';
	const HOOK_PREFS_TAB = 'hook_prefs_tab';
	const HOOK_RENDER_ARTICLE_API = 'hook_render_article_api';
	public $hooks = [];
	public $storage = [];
	function add_hook($type, $sender, $priority = 50) { $this->hooks[] = $type; }
	function get($sender, $name, $default_value = false) { return $this->storage[$name] ?? $default_value; }
	function set($sender, $name, $value) { $this->storage[$name] = $value; }
}
function __($text) { return $text; }
function get_self_url_prefix() { return 'https://rss.test/tt-rss'; }
$GLOBALS['check_mode'] = $mode;
function get_pref($name) {
	$mode = $GLOBALS['check_mode'];
	return $mode === 'api-on' || ($mode === 'browser-off' && $name === 'ENABLE_API_ACCESS');
}

require_once $plugin_base;
require_once $init;

$host = new PluginHost();
$plugin = new Reader();
$plugin->init($host);
ob_start();
$plugin->hook_main_toolbar_button();
$toolbar = ob_get_clean();
ob_start();
$plugin->hook_prefs_tab('prefPrefs');
$prefs = ob_get_clean();
ob_start();
$plugin->hook_prefs_tab('prefFeeds');
$other = ob_get_clean();
// The API hook: an article of user 7 with images of each kind, asked for with and without the flag.
$_SESSION['uid'] = 7;
$article = '<p>x</p><img src="http://feeds.test/a.png" alt="a"><img src="data:image/png;base64,AAAA">'
	. '<img src="https://rss.test/tt-rss/cache/images/b.png"><img src="https://feeds.test/c.png" srcset="https://feeds.test/c.png 1x, https://feeds.test/c2.png 2x">'
	. '<picture><source srcset="https://feeds.test/d.webp"><img src="https://feeds.test/d.png"></picture>';
$plain = $plugin->hook_render_article_api(['headline' => ['id' => 1, 'content' => $article]]);
$_REQUEST['reader_image_proxy'] = true;
$rewritten = $plugin->hook_render_article_api(['article' => ['id' => 1, 'content' => $article]]);
$list_row = $plugin->hook_render_article_api(['headline' => ['id' => 2, 'flavor_image' => 'https://feeds.test/stored.png']]);
// What else loads an image: srcset as tt-rss's sanitizer writes it (joined by "," alone, commas
// inside a URL), a video's poster, a YouTube embed (tt-rss names its thumbnail as the flavor image),
// and a flavor image the current tt-rss worked out before the hook.
$more = $plugin->hook_render_article_api(['headline' => ['id' => 3,
	'flavor_image' => 'https://feeds.test/flavor.png',
	'content' => '<img src="https://feeds.test/s.png" srcset="https://feeds.test/s1.png 1x,https://feeds.test/w_2,h_2/s2.png 2x">'
		. '<video poster="https://feeds.test/poster.png" controls><source src="https://feeds.test/v.webm"></video>'
		. '<iframe src="https://www.youtube.com/embed/abc_D-1?rel=0"></iframe>']]);
echo json_encode([
	'public' => ['image' => $plugin->is_public_method('image'), 'save' => $plugin->is_public_method('save')],
	'plain' => $plain['content'],
	'rewritten' => $rewritten['content'],
	'plain_images' => $plain['reader_images'] ?? null,
	'images' => $rewritten['reader_images'] ?? null,
	'list_images' => $list_row['reader_images'] ?? null,
	'more' => $more['content'],
	'more_images' => $more['reader_images'] ?? null,
	'queries' => $GLOBALS['queries'],
	'key' => $host->storage['image_key'] ?? null,
	'about' => $plugin->about(),
	'api_version' => $plugin->api_version(),
	'hooks' => $host->hooks,
	'toolbar' => $toolbar,
	'prefs' => $prefs,
	'other_tab' => $other
]);
