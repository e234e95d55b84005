<?php
// The Reader plugin's "Turn on API access" (package/init.php: hook_prefs_tab, enable_api) with the
// smallest stand-ins for tt-rss: a session, its CSRF token, and the preference functions that
// record what they were asked to set. Driven by plugin-enable-api.spec.ts:
//
//   php plugin-enable-api.php <tt-rss>/classes/Plugin.php package/init.php '<case as JSON>'
//
// The case: server (`2021` or `current`), session {uid, csrf_token}, request {method, post, get,
// accept, accept_language}, prefs (the user's stored values), call (`enable_api` or `prefs`).
// Prints JSON: status, the reply's body, the preference writes, the pane's HTML.
[$plugin_base, $init, $json] = [$argv[1], $argv[2], $argv[3]];
$case = json_decode($json, true);
$GLOBALS['writes'] = [];
$GLOBALS['prefs'] = $case['prefs'] ?? [];

if (($case['server'] ?? '') === 'current') {
	// The current tt-rss: Prefs::set/get by owner and profile; the browser opt-in exists.
	class Prefs {
		const ENABLE_API_ACCESS = 'ENABLE_API_ACCESS';
		const ENABLE_API_ACCESS_BROWSER = 'ENABLE_API_ACCESS_BROWSER';
		const USER_LANGUAGE = 'USER_LANGUAGE';
		static function set($name, $value, $owner_uid, $profile_id, $strip_tags = true) {
			$GLOBALS['writes'][] = ['set' => 'Prefs::set', 'name' => $name, 'value' => $value, 'uid' => $owner_uid, 'profile' => $profile_id];
			if ($owner_uid === $_SESSION['uid']) $GLOBALS['prefs'][$name] = (bool) $value;
			return true;
		}
	}
	function get_pref($name, $owner_uid = null) {
		return $GLOBALS['prefs'][$name] ?? ($name === 'USER_LANGUAGE' ? '' : false);
	}
} else {
	// 2021's tt-rss: set_pref(name, value, user_id) and Pref_Prefs::initialize_user_prefs.
	class Pref_Prefs {
		static function initialize_user_prefs($uid, $profile = false) {
			$GLOBALS['writes'][] = ['set' => 'initialize_user_prefs', 'uid' => $uid];
		}
	}
	function set_pref($name, $value, $user_id = false, $strip_tags = true) {
		$GLOBALS['writes'][] = ['set' => 'set_pref', 'name' => $name, 'value' => $value, 'uid' => $user_id];
		if ($user_id === $_SESSION['uid']) $GLOBALS['prefs'][$name] = $value === 'true';
	}
	function get_pref($name, $user_id = false) {
		return $GLOBALS['prefs'][$name] ?? ($name === 'USER_LANGUAGE' ? '' : false);
	}
}
class PluginHost {
	const HOOK_MAIN_TOOLBAR_BUTTON = 'hook_main_toolbar_button';
	const HOOK_PREFS_TAB = 'hook_prefs_tab';
	const HOOK_RENDER_ARTICLE_API = 'hook_render_article_api';
	function add_hook($type, $sender, $priority = 50) {}
}
// tt-rss's own translation: a German one of its own msgids, to tell them from the plugin's texts.
function __($text) {
	$german = ['Enable API' => 'API aktivieren', 'Enable browser-based API access' => 'Browserbasierten API-Zugriff aktivieren',
		'Preferences' => 'Einstellungen'];
	return ($GLOBALS['tt_language'] ?? '') === 'de' && isset($german[$text]) ? '[tt-rss] ' . $german[$text] : $text;
}
// tt-rss's check (both versions): the token of this session.
function validate_csrf($token) {
	return isset($token) && hash_equals($_SESSION['csrf_token'] ?? '', $token);
}
class Db { static function pdo() { return null; } }
function get_self_url_prefix() { return 'https://rss.test/tt-rss'; }

$_SESSION = $case['session'] ?? [];
$request = $case['request'] ?? [];
$_SERVER['REQUEST_METHOD'] = $request['method'] ?? 'GET';
if (isset($request['accept'])) $_SERVER['HTTP_ACCEPT'] = $request['accept'];
if (isset($request['accept_language'])) $_SERVER['HTTP_ACCEPT_LANGUAGE'] = $request['accept_language'];
$_POST = $request['post'] ?? [];
$_GET = $request['get'] ?? [];
$_REQUEST = array_merge($_GET, $_POST);
$GLOBALS['tt_language'] = $case['tt_language'] ?? '';

require_once $plugin_base;
require_once $init;

$plugin = new Reader();
$plugin->init(new PluginHost());
ob_start();
if (($case['call'] ?? 'enable_api') === 'prefs') {
	$plugin->hook_prefs_tab('prefPrefs');
} else {
	$plugin->enable_api();
}
$out = ob_get_clean();
echo json_encode([
	'status' => http_response_code() ?: 200,
	'body' => $out,
	'writes' => $GLOBALS['writes'],
	'prefs' => $GLOBALS['prefs'],
], JSON_UNESCAPED_UNICODE);
