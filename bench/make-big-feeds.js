// Writes the big account's data (deterministic, nothing random) into the directory given as the
// first argument, for bench/big-setup.sh:
//   big-NNNN.xml   1,000 feeds of 100 items each (~700 B of HTML per item), served by the feed host
//   plan.sql       the 50 categories (some nested, three levels) and the 1,000 subscriptions
//   post.sql       after tt-rss fetched them: 20,000 unread (all 5,000 of one category), 1,000
//                  starred, 48 labels (with the seed's 2: 50)
// The result lives in the snapshot database ttrss_big, never in the repository. The SQL files take
// the user's login as the psql variable `u`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { articleHtml, rss, words } from './make-feeds.js';

export const BIG = {
	feeds: 1_000,
	perFeed: 100,
	categories: 50,
	unread: 20_000,
	starred: 1_000,
	labels: 48,
	/** Every article of this category's feeds stays unread: "a category with 5,000 unread". */
	hotCategory: 'Topic 01',
	hotFeeds: 50,
	/** Feed URLs start with this (the feed host serves bench/big-setup.sh's symlinked directory). */
	urlPrefix: 'http://feeds.test/feeds/big/'
};

/** @param {number} n @param {number} width */
const pad = (n, width) => String(n).padStart(width, '0');
/** @param {number} n */
export const categoryTitle = (n) => `Topic ${pad(n, 2)}`;
/** @param {string} s */
const sql = (s) => `'${s.replace(/'/g, "''")}'`;

/** Topics 41–45 sit in 31–35, and 46–50 in 41–45: three levels deep. @param {number} n */
function parentOf(n) {
	if (n >= 46) return n - 5;
	if (n >= 41) return n - 10;
	return 0;
}

/** Feeds 1–50 in the hot category, the other 950 spread over the other 49. @param {number} f */
function categoryOf(f) {
	return f <= BIG.hotFeeds ? 1 : 2 + ((f - BIG.hotFeeds - 1) % (BIG.categories - 1));
}

/** @param {number} f */
const feedTitle = (f) => `Big ${pad(f, 4)} ${words(f, 2)}`;

/** @param {string} dir */
export function writeBigFeeds(dir) {
	mkdirSync(dir, { recursive: true });
	// Newer than the seed's dates (2026-07…10), one item every 6 h back from 2026-11-20 per feed,
	// each feed a minute apart: "All articles" starts with the big account's.
	const newest = Date.UTC(2026, 10, 20);
	/** @type {string[]} */
	const feedRows = [];
	for (let f = 1; f <= BIG.feeds; f++) {
		const items = [];
		for (let i = 1; i <= BIG.perFeed; i++) {
			const seed = f * 1000 + i;
			items.push({
				title: `Big ${pad(f, 4)} item ${pad(i, 3)} ${words(seed, 5)}`,
				guid: `big-${pad(f, 4)}-${pad(i, 3)}`,
				date: new Date(newest - (i - 1) * 6 * 3_600_000 - f * 60_000),
				html: articleHtml(seed, 500 + (seed % 7) * 50)
			});
		}
		const file = `big-${pad(f, 4)}.xml`;
		writeFileSync(join(dir, file), rss({ title: feedTitle(f), file }, items));
		feedRows.push(
			`(${sql(feedTitle(f))}, ${sql(BIG.urlPrefix + file)}, ${sql(categoryTitle(categoryOf(f)))})`
		);
	}

	const cats = [];
	const parents = [];
	for (let n = 1; n <= BIG.categories; n++) {
		cats.push(`(${sql(categoryTitle(n))}, ${n + 10})`);
		if (parentOf(n)) parents.push(`(${sql(categoryTitle(n))}, ${sql(categoryTitle(parentOf(n)))})`);
	}
	// favicon_last_checked = NOW(): tt-rss skips the icon fetch, which would write
	// /var/lib/tt-rss/feed-icons/<id>.ico files shared with every other database of the test bed.
	const plan = `-- The big account's categories and subscriptions (bench/make-big-feeds.js).
BEGIN;
INSERT INTO ttrss_feed_categories (owner_uid, title, order_id)
SELECT u.id, v.title, v.ord FROM ttrss_users u, (VALUES
${cats.join(',\n')}) AS v(title, ord) WHERE u.login = :'u';
UPDATE ttrss_feed_categories c SET parent_cat = p.id
  FROM (VALUES
${parents.join(',\n')}) AS v(child, parent), ttrss_feed_categories p, ttrss_users u
 WHERE u.login = :'u' AND c.owner_uid = u.id AND p.owner_uid = u.id
   AND c.title = v.child AND p.title = v.parent;
INSERT INTO ttrss_feeds (owner_uid, title, feed_url, cat_id, site_url, favicon_last_checked)
SELECT u.id, v.title, v.url, c.id, 'http://feeds.test/bench/', NOW()
  FROM (VALUES
${feedRows.join(',\n')}) AS v(title, url, cat)
  JOIN ttrss_users u ON u.login = :'u'
  JOIN ttrss_feed_categories c ON c.owner_uid = u.id AND c.title = v.cat;
-- The server skips feeds of users not seen for 30 days (DAEMON_UPDATE_LOGIN_LIMIT).
UPDATE ttrss_users SET last_login = NOW() WHERE login = :'u';
COMMIT;
`;
	writeFileSync(join(dir, 'plan.sql'), plan);

	const labelRows = [];
	for (let l = 1; l <= BIG.labels; l++) {
		const hue = (l * 47) % 360;
		labelRows.push(
			`(${sql(`Label ${pad(l, 2)}`)}, '#ffffff', ${sql(`#${hslHex(hue)}`)}, ${l - 1})`
		);
	}
	const post = `-- The big account's reading state, after tt-rss fetched its feeds (bench/make-big-feeds.js).
BEGIN;
CREATE TEMP TABLE big AS
SELECT ue.int_id, ue.ref_id, c.title AS cat,
       row_number() OVER (PARTITION BY ue.feed_id ORDER BY e.updated DESC, e.id DESC) AS rank,
       row_number() OVER (ORDER BY e.id) AS n, ue.feed_id
  FROM ttrss_user_entries ue
  JOIN ttrss_entries e ON e.id = ue.ref_id
  JOIN ttrss_feeds f ON f.id = ue.feed_id
  JOIN ttrss_feed_categories c ON c.id = f.cat_id
  JOIN ttrss_users u ON u.id = ue.owner_uid AND u.login = :'u'
 WHERE f.feed_url LIKE ${sql(`${BIG.urlPrefix}%`)};
-- Read without last_read, as the seed's corpus: "Recently read" stays short.
UPDATE ttrss_user_entries SET unread = false WHERE int_id IN (SELECT int_id FROM big);
UPDATE ttrss_user_entries SET unread = true WHERE int_id IN
  (SELECT int_id FROM big WHERE cat = ${sql(BIG.hotCategory)});
UPDATE ttrss_user_entries SET unread = true WHERE int_id IN
  (SELECT int_id FROM big WHERE cat <> ${sql(BIG.hotCategory)} ORDER BY rank, feed_id
    LIMIT ${BIG.unread - BIG.hotFeeds * BIG.perFeed});
UPDATE ttrss_user_entries SET marked = true, last_marked = NOW() WHERE int_id IN
  (SELECT int_id FROM big WHERE n % ${(BIG.feeds * BIG.perFeed) / BIG.starred} = 0);
INSERT INTO ttrss_labels2 (owner_uid, caption, fg_color, bg_color)
SELECT u.id, v.caption, v.fg, v.bg FROM ttrss_users u, (VALUES
${labelRows.join(',\n')}) AS v(caption, fg, bg, k) WHERE u.login = :'u';
-- Every 40th article carries one label, the labels in turn (~52 articles each).
INSERT INTO ttrss_user_labels2 (label_id, article_id)
SELECT l.id, b.ref_id FROM big b
  JOIN ttrss_users u ON u.login = :'u'
  JOIN ttrss_labels2 l ON l.owner_uid = u.id
   AND l.caption = 'Label ' || lpad(((b.n / 40) % ${BIG.labels} + 1)::text, 2, '0')
 WHERE b.n % 40 = 3;
DELETE FROM ttrss_counters_cache;
DELETE FROM ttrss_cat_counters_cache;
COMMIT;
`;
	writeFileSync(join(dir, 'post.sql'), post);
}

/** A mid-dark colour for a label's background (white text stays readable). @param {number} h */
function hslHex(h) {
	const s = 0.6;
	const l = 0.38;
	/** @param {number} n */
	const f = (n) => {
		const k = (n + h / 30) % 12;
		const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
		return Math.round(c * 255)
			.toString(16)
			.padStart(2, '0');
	};
	return `${f(0)}${f(8)}${f(4)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const dir = process.argv[2];
	if (!dir) throw new Error('usage: node bench/make-big-feeds.js DIR');
	writeBigFeeds(dir);
}
