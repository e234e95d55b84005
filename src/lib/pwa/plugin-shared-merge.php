<?php
// Runs the plugin's merge rule (package/shared-settings.php, ReaderSharedSettings::shared_merge)
// on pairs of items read as JSON from stdin, for src/lib/sync/shared-merge.spec.ts: the app's rule
// and the server's must settle every pair alike.
//
//   php plugin-shared-merge.php package/shared-settings.php < '[[itemA|null, itemB|null], …]'
class Plugin {}
require_once $argv[1];
class MergeUnderTest { use ReaderSharedSettings; }
$pairs = json_decode(stream_get_contents(STDIN), true);
echo json_encode(array_map(function ($pair) {
	return MergeUnderTest::shared_merge($pair[0], $pair[1]);
}, $pairs), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
