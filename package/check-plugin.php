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

class Db { static function pdo() { return null; } }
class PluginHost {
	const HOOK_MAIN_TOOLBAR_BUTTON = 'hook_main_toolbar_button';
	const HOOK_PREFS_TAB = 'hook_prefs_tab';
	public $hooks = [];
	function add_hook($type, $sender, $priority = 50) { $this->hooks[] = $type; }
}
function __($text) { return $text; }
$GLOBALS['check_mode'] = $mode;
function get_pref($name) {
	$mode = $GLOBALS['check_mode'];
	return $mode === 'api-on' || ($mode === 'browser-off' && $name === 'ENABLE_API_ACCESS');
}

require_once $plugin_base;
require_once $init;

$plugin = new Reader(new PluginHost());
$host = new PluginHost();
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
echo json_encode([
	'about' => $plugin->about(),
	'api_version' => $plugin->api_version(),
	'hooks' => $host->hooks,
	'toolbar' => $toolbar,
	'prefs' => $prefs,
	'other_tab' => $other
]);
