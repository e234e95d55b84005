// @vitest-environment jsdom
// DOMParser needs a DOM; the same parser runs in Chromium through tests/e2e/account-tools.spec.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_OPML_BYTES, readOpml, writeOpml, type OpmlNode } from './opml';

const wrap = (body: string): string =>
	`<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>t</title></head><body>${body}</body></opml>`;

function errorOf(text: string): string {
	const result = readOpml(text);
	if (result.ok) throw new Error('expected a refusal');
	return result.error;
}

describe('readOpml', () => {
	it('lists feeds with the categories around them', () => {
		const result = readOpml(
			wrap(`
			<outline text="Tech"><outline text="Web">
				<outline type="rss" text="Web Dev" xmlUrl="http://feeds.test/feeds/web-dev.xml"/>
			</outline></outline>
			<outline text="Loose" title="Loose feed" xmlUrl="https://example.org/feed"/>`)
		);
		expect(result).toEqual({
			ok: true,
			title: 't',
			feeds: [
				{
					title: 'Web Dev',
					xmlUrl: 'http://feeds.test/feeds/web-dev.xml',
					categoryPath: ['Tech', 'Web']
				},
				{ title: 'Loose feed', xmlUrl: 'https://example.org/feed', categoryPath: [] }
			]
		});
	});

	it('keeps one entry per feed address and drops addresses the server must not fetch', () => {
		const result = readOpml(
			wrap(`<outline text="A" xmlUrl="http://x.test/f"/><outline text="B"><outline text="A2" xmlUrl="http://x.test/f"/></outline>
			<outline text="js" xmlUrl="javascript:alert(1)"/><outline text="file" xmlUrl="file:///etc/passwd"/>`)
		);
		expect(result.ok && result.feeds.map((f) => f.title)).toEqual(['A']);
	});

	it('says why an empty, malformed, non-OPML, feedless or huge file is refused', () => {
		expect(errorOf('')).toMatch(/empty/);
		expect(errorOf('   \n')).toMatch(/empty/);
		expect(errorOf('<opml><body><outline></body>')).toMatch(/not well-formed XML/);
		expect(errorOf('just some text')).toMatch(/not well-formed XML/);
		expect(errorOf('<rss version="2.0"><channel/></rss>')).toMatch(/not OPML/);
		expect(errorOf('<opml version="2.0"><head/></opml>')).toMatch(/no <body>/);
		expect(errorOf(wrap('<outline text="Empty"/>'))).toMatch(/lists no feeds/);
		expect(errorOf(wrap('x'.repeat(MAX_OPML_BYTES)))).toMatch(/larger than 5 MB/);
	});

	it('refuses entity declarations: no expansion bomb, no external entity', () => {
		const bomb =
			'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
			'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>' +
			'<opml version="2.0"><body><outline text="&d;" xmlUrl="http://x.test/f"/></body></opml>';
		expect(errorOf(bomb)).toMatch(/declares XML entities/);
		const external =
			'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
			'<opml version="2.0"><body><outline text="&xxe;" xmlUrl="http://x.test/f"/></body></opml>';
		expect(errorOf(external)).toMatch(/declares XML entities/);
		// Case does not hide one.
		expect(errorOf(external.replace('ENTITY', 'entity'))).toMatch(/declares XML entities/);
	});

	it('refuses nesting deeper than MAX_DEPTH (32), titled outlines or not', () => {
		const feed = '<outline xmlUrl="https://feeds.example/x"/>';
		const nested = (depth: number, open: (level: number) => string): string =>
			Array.from({ length: depth }, (_, level) => open(level)).join('') +
			feed +
			'</outline>'.repeat(depth);
		const untitled = (): string => '<outline>';
		const titled = (level: number): string => `<outline text="c${level}">`;
		const mixed = (level: number): string => (level % 2 ? untitled() : titled(level));
		for (const open of [untitled, titled, mixed]) {
			expect(readOpml(wrap(nested(100, open))).ok).toBe(false);
			expect(errorOf(wrap(nested(33, open)))).toContain('more than 32 levels deep');
			expect(readOpml(wrap(nested(32, open))).ok).toBe(true);
		}
		// Untitled levels add no category: the feed lands in the titled ones around it.
		const result = readOpml(wrap(nested(4, mixed)));
		expect(result.ok && result.feeds[0]?.categoryPath).toEqual(['c0', 'c2']);
	});

	it('never throws, whatever the text (property)', () => {
		const xmlish = fc.array(
			fc.oneof(
				fc.constantFrom(
					'<opml>',
					'</opml>',
					'<body>',
					'</body>',
					'<outline text="a" xmlUrl="http://a.test/">',
					'<outline>',
					'</outline>',
					'<!DOCTYPE opml>',
					'<![CDATA[x]]>',
					'&amp;',
					'&bogus;',
					'<?xml version="1.0"?>'
				),
				fc.string()
			),
			{ maxLength: 30 }
		);
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string(),
					xmlish.map((parts) => parts.join(''))
				),
				(text) => {
					const result = readOpml(text);
					expect(typeof result.ok).toBe('boolean');
					if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
				}
			),
			{ numRuns: 150 }
		);
	});
});

describe('writeOpml', () => {
	const feed: fc.Arbitrary<OpmlNode> = fc.record({
		kind: fc.constant('feed' as const),
		title: fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
		xmlUrl: fc.webUrl({ validSchemes: ['http', 'https'] })
	});
	const node: fc.Memo<OpmlNode> = fc.memo((depth) =>
		depth <= 1
			? feed
			: fc.oneof(
					feed,
					fc.record({
						kind: fc.constant('category' as const),
						title: fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
						children: fc.array(node(depth - 1), { maxLength: 3 })
					})
				)
	);

	it('escapes every text: what is written reads back the same (property)', () => {
		fc.assert(
			fc.property(fc.array(node(3), { maxLength: 4 }), fc.string(), (outlines, title) => {
				const text = writeOpml({ title, created: new Date(0), outlines });
				const expected: { title: string; xmlUrl: string; categoryPath: string[] }[] = [];
				const seen = new Set<string>();
				const clean = (s: string): string =>
					// eslint-disable-next-line no-control-regex
					s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').trim();
				const walk = (nodes: OpmlNode[], path: string[]): void => {
					for (const n of nodes) {
						if (n.kind === 'feed') {
							const url = new URL(n.xmlUrl).href;
							if (!seen.has(url)) {
								seen.add(url);
								expected.push({ title: clean(n.title) || url, xmlUrl: url, categoryPath: path });
							}
						} else if (n.children.length > 0) {
							walk(n.children, clean(n.title) ? [...path, clean(n.title)] : path);
						}
					}
				};
				walk(outlines, []);
				const result = readOpml(text);
				if (expected.length === 0) expect(result.ok).toBe(false);
				else expect(result).toEqual({ ok: true, title: clean(title), feeds: expected });
			}),
			{ numRuns: 40, endOnFailure: true }
		);
	}, 60_000);

	it('writes OPML 2.0 with type, text, title, xmlUrl and htmlUrl', () => {
		const text = writeOpml({
			title: 'A & B',
			created: new Date(Date.UTC(2026, 10, 23)),
			outlines: [
				{
					kind: 'category',
					title: 'Tech <1>',
					children: [
						{
							kind: 'feed',
							title: '"Q"',
							xmlUrl: 'http://a.test/?a=1&b=2',
							htmlUrl: 'http://a.test/'
						}
					]
				}
			]
		});
		expect(text).toContain('<opml version="2.0">');
		expect(text).toContain('<title>A &amp; B</title>');
		expect(text).toContain('<dateCreated>Mon, 23 Nov 2026 00:00:00 GMT</dateCreated>');
		expect(text).toContain('<outline text="Tech &lt;1&gt;" title="Tech &lt;1&gt;">');
		expect(text).toContain(
			'<outline type="rss" text="&quot;Q&quot;" title="&quot;Q&quot;" xmlUrl="http://a.test/?a=1&amp;b=2" htmlUrl="http://a.test/"/>'
		);
	});
});
