/**
 * The Reader plugin's `shared_settings` method (package/shared-settings.php): the reader's
 * settings kept on the server, per item. It is a public method of the plugin, not an API op (only
 * system plugins can add those), so it has its own address beside the API; its body and reply
 * are the API's own (`sid`, `seq`, the `{seq, status, content}` envelope), read by the same
 * transport. Here: the address, and the typed boundary of its reply.
 */
import { isObject, ShapeError } from './wire';

/** One change of one item: its value as JSON text, and when the reader made it (ms since 1970). */
export interface SharedRecord {
	value: string;
	mtime: number;
}

/** An item as the server keeps it: the winning record and the last differing one it replaced. */
export interface SharedItem extends SharedRecord {
	replaced?: SharedRecord;
}

export type SharedItems = Record<string, SharedItem>;

export interface SharedSettingsReply {
	items: SharedItems;
	/** The server's clock (ms): a change dated after it is dated now by the server. */
	now: number;
}

/** The op's name in errors and in the body (the plugin reads it from the address). */
export const SHARED_SETTINGS_OP = 'sharedSettings';

/**
 * The code of the error a server without the plugin gives (the current tt-rss's own code; 2021's
 * public.php answers `{"error": {"code": 14, …}}`, turned into the same).
 */
export const PLUGIN_MISSING = 'E_UNKNOWN_PLUGIN';

/**
 * Whether an error of `sharedSettings` says the plugin is not there for this account (missing,
 * or not ticked in Preferences → Plugins): the settings then stay on the device.
 */
export function pluginAbsent(error: unknown): boolean {
	const code = isObject(error) ? error.code : undefined;
	return code === PLUGIN_MISSING || code === 'PLUGIN_DISABLED';
}

/** What the plugin accepts: the key's shape, a value's size (bytes of JSON), the items. */
export const SHARED_KEY = /^[a-z][a-z0-9._:-]{0,99}$/;
export const SHARED_MAX_VALUE = 65536;
export const SHARED_MAX_ITEMS = 200;

/** The plugin method's address for an API address (`…/tt-rss/api/` → `…/tt-rss/public.php?…`). */
export function sharedSettingsUrl(apiUrl: string): string {
	const base = apiUrl.replace(/[?#].*$/, '').replace(/api\/?(index\.php)?$/, '');
	const withSlash = base.endsWith('/') || base === '' ? base : `${base}/`;
	return `${withSlash}public.php?op=pluginhandler&plugin=reader&pmethod=shared_settings`;
}

function parseRecord(raw: unknown, where: string): SharedRecord {
	if (!isObject(raw)) throw new ShapeError(`${where}: expected a record`);
	const { value, mtime } = raw;
	if (typeof value !== 'string' || value.length > SHARED_MAX_VALUE) {
		throw new ShapeError(`${where}.value: expected JSON text`);
	}
	if (typeof mtime !== 'number' || !Number.isSafeInteger(mtime) || mtime <= 0) {
		throw new ShapeError(`${where}.mtime: expected a time`);
	}
	return { value, mtime };
}

/** The reply's content: `{items: {key: item}, now}`; anything else is a ShapeError. */
export function parseSharedSettings(content: unknown): SharedSettingsReply {
	if (!isObject(content)) throw new ShapeError('expected an object');
	const { items, now } = content;
	// PHP's json_encode writes an empty map as `[]` unless told otherwise; accept that spelling.
	const map = Array.isArray(items) && items.length === 0 ? {} : items;
	if (!isObject(map)) throw new ShapeError('items: expected a map');
	if (typeof now !== 'number' || !Number.isFinite(now))
		throw new ShapeError('now: expected a time');
	const out: SharedItems = {};
	const keys = Object.keys(map);
	if (keys.length > SHARED_MAX_ITEMS) throw new ShapeError('items: too many');
	for (const key of keys) {
		if (!SHARED_KEY.test(key)) throw new ShapeError(`items: bad key`);
		const raw = map[key];
		const item: SharedItem = parseRecord(raw, `items.${key}`);
		if (isObject(raw) && raw.replaced !== undefined && raw.replaced !== null) {
			item.replaced = parseRecord(raw.replaced, `items.${key}.replaced`);
		}
		out[key] = item;
	}
	return { items: out, now };
}
