// Writes the benchmark's feeds (deterministic, nothing random) into the directory given as the
// first argument:
//   bench-10k.xml      10,000 short items (the long headline list)
//   bench-content.xml  1,200 items of ~1.5 KB HTML (offline download) + one item of ~100 KB HTML
// They are only needed while tt-rss fetches them (bench/setup.sh); the result lives in the
// snapshot database ttrss_bench, never in the repository.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

export const BENCH_FEEDS = {
	long: { file: 'bench-10k.xml', title: 'Bench 10k headlines', items: 10_000 },
	content: { file: 'bench-content.xml', title: 'Bench content', items: 1_200 }
};
export const BIG_ARTICLE_TITLE = 'Bench article of 100 KB';
/**
 * Each content article shows one photo-sized image (its own address, so each is fetched and kept
 * once): the first full sync's figure is "1,000 unread articles with images". The file is written
 * by bench/sync.js while it runs (`benchPhoto()`), served by the feed host under /media/.
 */
export const BENCH_PHOTO = 'bench-photo.png';

/**
 * A deterministic 160×120 PNG of noise (~57 KB: noise does not compress), about the size of a
 * feed's resized photo.
 */
export function benchPhoto() {
	const width = 160;
	const height = 120;
	const raw = Buffer.alloc((width * 3 + 1) * height);
	let x = 12345;
	for (let i = 0; i < raw.length; i++) {
		if (i % (width * 3 + 1) === 0) continue; // filter byte 0
		x = (Math.imul(x, 1103515245) + 12345) >>> 0;
		raw[i] = x >>> 24;
	}
	const chunk = (/** @type {string} */ type, /** @type {Buffer} */ data) => {
		const head = Buffer.alloc(8);
		head.writeUInt32BE(data.length, 0);
		head.write(type, 4, 'latin1');
		const crc = Buffer.alloc(4);
		crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
		return Buffer.concat([head, data, crc]);
	};
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // RGB
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', ihdr),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0))
	]);
}

/** @param {Buffer} bytes */
function crc32(bytes) {
	let crc = ~0;
	for (const byte of bytes) {
		crc ^= byte;
		for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
	}
	return ~crc >>> 0;
}

const WORDS =
	'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat'.split(
		' '
	);

/** @param {number} seed @param {number} count */
export function words(seed, count) {
	const out = [];
	for (let i = 0; i < count; i++) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length]);
	return out.join(' ');
}

/** @param {string} s */
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** @param {number} n */
function pad(n) {
	return String(n).padStart(5, '0');
}

/** About `bytes` of article HTML: headings, paragraphs, a list, a table, a code block. */
export function articleHtml(/** @type {number} */ seed, /** @type {number} */ bytes) {
	let html = '';
	let i = 0;
	while (html.length < bytes) {
		const k = seed + i++;
		if (i % 12 === 1) html += `<h2>Section ${i} — ${words(k, 5)}</h2>`;
		if (i % 10 === 5)
			html += `<ul>${[0, 1, 2, 3].map((j) => `<li>${words(k + j, 8)}</li>`).join('')}</ul>`;
		if (i % 25 === 9)
			html += `<table><tr><th>a</th><th>b</th></tr><tr><td>${k}</td><td>${words(k, 3)}</td></tr></table>`;
		if (i % 30 === 17)
			html += `<pre><code>const x${k} = ${k} * 2;\nconsole.log(x${k});</code></pre>`;
		html += `<p>${words(k, 30)} <a href="http://feeds.test/bench/${k}">${words(k + 1, 3)}</a> <em>${words(k + 2, 4)}</em>.</p>`;
	}
	return html;
}

/**
 * @param {{ title: string, file: string }} feed
 * @param {{ title: string, guid: string, date: Date, html: string }[]} items
 */
export function rss(feed, items) {
	const body = items
		.map(
			(it) =>
				`<item><title>${esc(it.title)}</title><link>http://feeds.test/bench/${it.guid}</link>` +
				`<guid isPermaLink="false">${it.guid}</guid><pubDate>${it.date.toUTCString()}</pubDate>` +
				`<description>${esc(it.html)}</description></item>`
		)
		.join('\n');
	return (
		`<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>` +
		`<title>${esc(feed.title)}</title><link>http://feeds.test/bench/</link>` +
		`<description>Benchmark feed (generated)</description>\n${body}\n</channel></rss>\n`
	);
}

/** @param {string} dir */
export function writeBenchFeeds(dir) {
	mkdirSync(dir, { recursive: true });
	// Long list: 10,000 items, one a minute, before the seed's dates; short bodies.
	const base = Date.UTC(2025, 0, 1);
	const long = [];
	for (let n = BENCH_FEEDS.long.items; n >= 1; n--) {
		long.push({
			title: `Bench headline ${pad(n)} ${words(n, 4)}`,
			guid: `bench-10k-${pad(n)}`,
			date: new Date(base + n * 60_000),
			html: `<p>${words(n, 25)}</p>`
		});
	}
	writeFileSync(join(dir, BENCH_FEEDS.long.file), rss(BENCH_FEEDS.long, long));

	// Content: newer than everything else, so "the newest unread" are these.
	const cbase = Date.UTC(2027, 0, 1);
	const content = [
		{
			title: BIG_ARTICLE_TITLE,
			guid: 'bench-content-big',
			date: new Date(cbase + (BENCH_FEEDS.content.items + 1) * 60_000),
			html: articleHtml(1, 100_000)
		}
	];
	for (let n = BENCH_FEEDS.content.items; n >= 1; n--) {
		content.push({
			title: `Bench article ${pad(n)} ${words(n, 4)}`,
			guid: `bench-content-${pad(n)}`,
			date: new Date(cbase + n * 60_000),
			html:
				`<p><img src="http://feeds.test/media/${BENCH_PHOTO}?n=${n}" width="160" height="120" alt=""></p>` +
				articleHtml(n, 1_200 + (n % 5) * 150)
		});
	}
	writeFileSync(join(dir, BENCH_FEEDS.content.file), rss(BENCH_FEEDS.content, content));
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const dir = process.argv[2];
	if (!dir) throw new Error('usage: node bench/make-feeds.js DIR');
	writeBenchFeeds(dir);
}
