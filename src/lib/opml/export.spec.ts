// @vitest-environment jsdom
// The written file is read back with DOMParser, as another reader would.
import { describe, expect, it } from 'vitest';
import { parseFeedTree, parseFeeds } from '$lib/api/parse';
import { deriveCapabilities } from '$lib/api/capabilities';
import { treeFromNodes } from '$lib/api/tree';
import { levelOf, recordedContent, recordedLevels } from '$support/fake-fetch';
import { exportFileName, subscriptionNodes } from './export';
import { readOpml, writeOpml } from './opml';

// The test bed's own replies, of both servers: getFeedTree has no addresses, getFeeds has them.
describe.each(recordedLevels)('OPML export of the recorded subscription tree (%s)', (level) => {
	const caps = deriveCapabilities(levelOf(level));
	const tree = treeFromNodes(parseFeedTree(recordedContent(level, 'getFeedTree'), caps));
	const feeds = parseFeeds(recordedContent(level, 'getFeeds-all'), caps);
	const nodes = subscriptionNodes(tree, feeds);
	const read = readOpml(writeOpml({ title: 'x', created: new Date(0), outlines: nodes }));

	it('puts every feed in its (nested) category with its address', () => {
		if (!read.ok) throw new Error(read.error);
		const where = Object.fromEntries(
			read.feeds.map((f) => [f.xmlUrl.replace('http://feeds.test/feeds/', ''), f.categoryPath])
		);
		expect(where).toEqual({
			'tech-news.xml': ['Tech'],
			'web-dev.xml': ['Tech', 'Web'],
			'international.xml': ['World'],
			'podcast.xml': ['World'],
			'hostile.xml': [],
			'big.xml': [],
			'hostile-corpus.xml': []
		});
		expect(read.feeds.find((f) => f.xmlUrl.endsWith('/international.xml'))?.title).toBe(
			'Testbed International — 国際 · دولي · Международный'
		);
	});

	it('keeps empty categories, and leaves out special feeds and labels', () => {
		expect(nodes.some((n) => n.kind === 'category' && n.title === 'Empty')).toBe(true);
		const titles = JSON.stringify(nodes);
		expect(titles).not.toContain('Starred articles');
		expect(titles).not.toContain('Important');
	});

	it('adds site addresses where the server gave them (level 21+)', () => {
		const withSites = subscriptionNodes(
			tree,
			feeds,
			new Map([[1, 'http://feeds.test/tech-news/']])
		);
		const tech = withSites.find((n) => n.kind === 'category' && n.title === 'Tech');
		expect(tech?.kind === 'category' && tech.children.find((c) => c.kind === 'feed')).toEqual({
			kind: 'feed',
			title: 'Testbed Tech News',
			xmlUrl: 'http://feeds.test/feeds/tech-news.xml',
			htmlUrl: 'http://feeds.test/tech-news/'
		});
	});

	it('names the file after the server and the day', () => {
		expect(
			exportFileName('https://rss.example.org/tt-rss/api/', new Date(Date.UTC(2026, 10, 23)))
		).toBe('tt-rss-rss.example.org-2026-11-23.opml');
	});
});
