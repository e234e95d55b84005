<?php
// Fetches many feeds in one PHP process, with tt-rss's own code (RSSUtils::update_rss_feed, what
// `update.php --update-feed ID` runs), into the database named by the first argument instead of
// the live one: bench/big-setup.sh builds the big account in a database of its own, so the test bed
// stays usable (and unlocked) while tt-rss fetches 100,000 articles. `update.php --feeds` would
// start one PHP process per feed and then run its housekeeping, which deletes the feed icons of
// every feed this database lacks (the icon directory is shared by all of the test bed's databases).
//
//   php bench/big-update.php DBNAME FEED_ID...      (as www-data, like update.php)
if ($argc < 3) {
	fwrite(STDERR, "usage: php big-update.php DBNAME FEED_ID...\n");
	exit(2);
}
define('DB_NAME', $argv[1]);

$www = '/usr/share/tt-rss/www';
set_include_path("$www/include" . PATH_SEPARATOR . get_include_path());
define('DISABLE_SESSIONS', true);
chdir($www);

require_once 'autoload.php';
require_once 'functions.php';
// config.php defines DB_NAME again (from /etc/tt-rss/database.php): the first definition wins and
// PHP 8 only warns, so silence exactly that include.
$level = error_reporting(E_ALL & ~E_WARNING);
require_once 'config.php';
error_reporting($level);
require_once 'sanity_check.php';
require_once 'db.php';
require_once 'db-prefs.php';

init_plugins();

$failed = 0;
foreach (array_slice($argv, 2) as $id) {
	try {
		if (!RSSUtils::update_rss_feed((int) $id, true)) {
			fwrite(STDERR, "feed $id: update failed\n");
			$failed++;
		}
	} catch (Throwable $e) {
		fwrite(STDERR, "feed $id: " . $e->getMessage() . "\n");
		$failed++;
	}
}
exit($failed ? 1 : 0);
