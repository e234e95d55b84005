<?php
// SPDX-License-Identifier: GPL-3.0-or-later
// "Kept on the server" (issue 60): the reader's settings, muted words and swipe actions, kept in
// tt-rss's plugin storage for that user (table ttrss_plugin_storage, the row of class Reader, key
// `shared_settings`) so that every device of the reader reads the same ones.
//
// Why a public method and not an API method: tt-rss's add_api_method() registers a method only for
// a *system* plugin on both Debian's 2021 tt-rss and the current one (PluginHost::add_api_method
// checks is_system()), and this plugin is a user plugin (ticked per user in Preferences → Plugins).
// So the app posts to public.php?op=pluginhandler&plugin=reader&pmethod=shared_settings with the
// JSON body the API takes ({"sid", "seq", "put"}), and this method checks the API session itself
// with tt-rss's own validate_session() (2021's function, today's Sessions::validate_session()),
// as api/index.php does. The session id travels in the body only, never in the address. The reply
// is the API's envelope ({"seq", "status", "content"}), so the app reads it with the API's own
// transport: NOT_LOGGED_IN, INCORRECT_USAGE, and PLUGIN_DISABLED where the user has not ticked the
// plugin.
//
// Records: key → {value: the setting as JSON text, mtime: when the reader changed it (ms since
// 1970), replaced: the last differing record it replaced, or absent}. Per item, the later change
// wins (ties: the larger JSON text, compared byte by byte); `replaced` is the highest record whose
// value differs from the winner's, so merging is commutative, associative and idempotent (the same
// rule as src/lib/sync/shared-merge.ts, tested there with fast-check). A change dated in the
// future is dated now: one device's wrong clock cannot win over every later change. The write
// locks the storage row (SELECT … FOR UPDATE), so two devices sending at once both land.
//
// Opened directly by a browser rather than loaded by tt-rss: nothing to show.
if (!class_exists('Plugin')) {
	http_response_code(404);
	exit;
}

trait ReaderSharedSettings {
	/** The public method, and the key of the records in the user's plugin storage. */
	static $SHARED_METHOD = 'shared_settings';
	static $SHARED_KEY = 'shared_settings';
	/** Limits: a key's shape, a value's JSON text (bytes), the number of items. */
	static $SHARED_KEY_PATTERN = '/^[a-z][a-z0-9._:-]{0,99}$/';
	static $SHARED_MAX_VALUE = 65536;
	static $SHARED_MAX_ITEMS = 200;

	private static function shared_reply($seq, $status, $content) {
		header('Content-Type: application/json; charset=utf-8');
		header('Cache-Control: no-store');
		header('X-Content-Type-Options: nosniff');
		print json_encode(['seq' => $seq, 'status' => $status, 'content' => $content],
			JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
	}

	/** public.php?op=pluginhandler&plugin=reader&pmethod=shared_settings (POST, JSON body). */
	function shared_settings() {
		$body = json_decode((string) file_get_contents('php://input'), true);
		$seq = is_array($body) && isset($body['seq']) && is_int($body['seq']) ? $body['seq'] : 0;
		if (($_SERVER['REQUEST_METHOD'] ?? '') !== 'POST' || !is_array($body)) {
			self::shared_reply(-1, 1, ['error' => 'INCORRECT_USAGE']);
			return;
		}
		$uid = self::shared_session_uid($body['sid'] ?? null);
		if ($uid <= 0) {
			self::shared_reply(null, 1, ['error' => 'NOT_LOGGED_IN']);
			return;
		}
		if (!self::shared_plugin_on($uid)) {
			self::shared_reply($seq, 1, ['error' => 'PLUGIN_DISABLED']);
			return;
		}
		$put = $body['put'] ?? [];
		$incoming = is_array($put) ? self::shared_parse_items($put) : null;
		if ($incoming === null) {
			self::shared_reply($seq, 1, ['error' => 'INCORRECT_USAGE']);
			return;
		}
		$items = self::shared_store($uid, $incoming);
		if ($items === null) {
			self::shared_reply($seq, 1, ['error' => 'E_OPERATION_FAILED']);
			return;
		}
		self::shared_reply($seq, 0, ['items' => (object) $items, 'now' => self::shared_now()]);
	}

	private static function shared_now() {
		return (int) floor(microtime(true) * 1000);
	}

	/**
	 * The user of API session `$sid`, checked by tt-rss's own validate_session(), or 0. A session of
	 * the web UI that came along as a cookie is closed first (unchanged); the API session is read
	 * and let go without being written, and no cookie is sent for it.
	 */
	private static function shared_session_uid($sid) {
		if (!is_string($sid) || !preg_match('/^[A-Za-z0-9,-]{1,128}$/', $sid)) return 0;
		if (session_status() === PHP_SESSION_ACTIVE) session_write_close();
		ini_set('session.use_cookies', '0');
		ini_set('session.use_trans_sid', '0');
		session_cache_limiter('');
		session_id($sid);
		if (!@session_start()) return 0;
		$uid = isset($_SESSION['uid']) && is_numeric($_SESSION['uid']) ? (int) $_SESSION['uid'] : 0;
		$valid = $uid > 0 && (class_exists('Sessions') && method_exists('Sessions', 'validate_session')
			? Sessions::validate_session() : validate_session());
		session_abort();
		$_SESSION = [];
		return $valid ? $uid : 0;
	}

	/** Whether the user has ticked the plugin (Preferences → Plugins: `_ENABLED_PLUGINS`). */
	private static function shared_plugin_on($uid) {
		$enabled = get_pref('_ENABLED_PLUGINS', $uid);
		$folder = strtolower(basename(__DIR__));
		return in_array($folder, array_map('trim', explode(',', strtolower((string) $enabled))), true);
	}

	/** One record from the wire, or null when it is not one. */
	private static function shared_record($raw, $now) {
		if (!is_array($raw) || !isset($raw['value'], $raw['mtime'])) return null;
		if (!is_string($raw['value']) || strlen($raw['value']) > self::$SHARED_MAX_VALUE) return null;
		if (json_decode($raw['value']) === null && trim($raw['value']) !== 'null') return null;
		if (!is_int($raw['mtime']) || $raw['mtime'] <= 0) return null;
		return ['value' => $raw['value'], 'mtime' => min($raw['mtime'], $now)];
	}

	/** The `put` map, each item a record with an optional `replaced` record; null when malformed. */
	private static function shared_parse_items(array $put) {
		if (count($put) > self::$SHARED_MAX_ITEMS) return null;
		$now = self::shared_now();
		$items = [];
		foreach ($put as $key => $raw) {
			if (!is_string($key) || !preg_match(self::$SHARED_KEY_PATTERN, $key)) return null;
			$record = self::shared_record($raw, $now);
			if ($record === null) return null;
			if (isset($raw['replaced'])) {
				$replaced = self::shared_record($raw['replaced'], $now);
				if ($replaced === null) return null;
				$record['replaced'] = $replaced;
			}
			$items[$key] = $record;
		}
		return $items;
	}

	/** Which record ranks higher: the later one, and on a tie the larger JSON text. */
	private static function shared_rank($a, $b) {
		return $a['mtime'] <=> $b['mtime'] ?: strcmp($a['value'], $b['value']) <=> 0;
	}

	/** The merge of two items (either may be null): see the head of this file. */
	static function shared_merge($a, $b) {
		$records = [];
		foreach ([$a, $b] as $item) {
			if (!is_array($item)) continue;
			$records[] = ['value' => $item['value'], 'mtime' => $item['mtime']];
			if (isset($item['replaced'])) $records[] = $item['replaced'];
		}
		if (!$records) return null;
		usort($records, function ($x, $y) { return self::shared_rank($y, $x); });
		$top = $records[0];
		foreach ($records as $record) {
			if ($record['value'] !== $top['value']) {
				$top['replaced'] = $record;
				break;
			}
		}
		return $top;
	}

	/**
	 * Merges `$incoming` into the user's stored records in one transaction that locks their row,
	 * and returns every record after it (null when the database refused).
	 */
	private static function shared_store($uid, array $incoming) {
		$pdo = Db::pdo();
		try {
			$pdo->beginTransaction();
			$sth = $pdo->prepare('SELECT id, content FROM ttrss_plugin_storage
				WHERE name = ? AND owner_uid = ?' . ($incoming ? ' FOR UPDATE' : ''));
			$sth->execute([self::class, $uid]);
			$row = $sth->fetch();
			$data = $row ? @unserialize($row['content'], ['allowed_classes' => false]) : [];
			if (!is_array($data)) $data = [];
			$items = is_array($data[self::$SHARED_KEY] ?? null) ? $data[self::$SHARED_KEY] : [];
			$changed = false;
			foreach ($incoming as $key => $item) {
				$merged = self::shared_merge($items[$key] ?? null, $item);
				if ($merged !== ($items[$key] ?? null)) {
					$items[$key] = $merged;
					$changed = true;
				}
			}
			if (count($items) > self::$SHARED_MAX_ITEMS) {
				$pdo->rollBack();
				return null;
			}
			if ($changed) {
				$data[self::$SHARED_KEY] = $items;
				if ($row) {
					$pdo->prepare('UPDATE ttrss_plugin_storage SET content = ? WHERE id = ?')
						->execute([serialize($data), $row['id']]);
				} else {
					$pdo->prepare('INSERT INTO ttrss_plugin_storage (name, owner_uid, content) VALUES (?, ?, ?)')
						->execute([self::class, $uid, serialize($data)]);
				}
			}
			$pdo->commit();
			return $items;
		} catch (PDOException $e) {
			if ($pdo->inTransaction()) $pdo->rollBack();
			return null;
		}
	}
}
