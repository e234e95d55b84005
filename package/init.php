<?php
// The Reader (an offline-first web app for Tiny Tiny RSS), installed as a tt-rss plugin: this folder
// holds the built app, served as static files next to tt-rss, and this class, which adds an
// "Open in Reader" entry to tt-rss's toolbar and preferences. It never changes a setting itself:
// where the account's API access (or, on current tt-rss, its browser-based API access) is off, the
// entry says so and names the setting. Works with Debian's 2021 tt-rss and the current one
// (both: Plugin API 2, hooks added with $host::HOOK_…, hook_main_toolbar_button printing its HTML).

// Opened directly by a browser rather than loaded by tt-rss: nothing to show.
if (!class_exists('Plugin')) {
	http_response_code(404);
	exit;
}

class Reader extends Plugin {
	const VERSION = '@VERSION@';

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
}
