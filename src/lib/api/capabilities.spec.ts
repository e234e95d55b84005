import { describe, expect, it } from 'vitest';
import {
	compareVersions,
	deriveCapabilities,
	labelIdFromWire,
	labelIdToWire,
	parseVersion
} from './capabilities';

describe('capabilities', () => {
	it('parses the version strings servers send', () => {
		expect(parseVersion('1.7.4')).toEqual([1, 7, 4]);
		expect(parseVersion('21.02-b4cbc79')).toEqual([21, 2]);
		expect(parseVersion('Debian 21~git20210204.b4cbc79+dfsg-1.2 (Unsupported)')).toEqual([21]);
		expect(parseVersion(undefined)).toEqual([]);
		expect(compareVersions([1, 7, 4], [1, 7, 5])).toBe(-1);
		expect(compareVersions([21], [1, 7, 5])).toBe(1);
	});

	it.each([
		[0, { headlineLimit: 60, labels: false, noteField: false, search: false, feedTree: false }],
		[1, { labels: true, noteField: true, search: false }],
		[2, { search: true, shareToPublished: false }],
		[4, { shareToPublished: true, orderBy: false, includeEmpty: false, feedTree: false }],
		[5, { headlineLimit: 60, feedTree: true, subscribe: true, orderBy: true, includeEmpty: true }],
		[6, { headlineLimit: 200, sanitizeHeadlines: false }],
		[12, { checkFirstId: true, includeHeader: true, sanitizeArticle: false }],
		[14, { catchupMode: false, tagFeeds: false }],
		[15, { catchupMode: true, scoreField: false, loginConfig: false, tagFeeds: true }],
		[17, { loginConfig: true }],
		[18, { tagFeeds: true, feedIcon: false }],
		[20, { sanitizeShare: true, siteUrl: false }],
		[23, { siteUrl: true, catchupSearch: true, feedErrors: true }]
	])('level %i', (level, expected) => {
		expect(deriveCapabilities(level)).toMatchObject(expected);
	});

	it('label ids: -11 - id before 1.7.5, -1025 - id after', () => {
		expect(deriveCapabilities(4, '1.7.4').legacyLabelIds).toBe(true);
		expect(deriveCapabilities(4, '1.7.5').legacyLabelIds).toBe(false);
		expect(deriveCapabilities(5).legacyLabelIds).toBe(false);
		const legacy = { legacyLabelIds: true };
		expect(labelIdToWire(-1026, legacy)).toBe(-12);
		expect(labelIdFromWire(-12, legacy)).toBe(-1026);
		// Special feeds and real feeds are never converted.
		for (const id of [-4, -1, 0, 7]) {
			expect(labelIdToWire(id, legacy)).toBe(id);
			expect(labelIdFromWire(id, legacy)).toBe(id);
		}
		expect(labelIdToWire(-1026, { legacyLabelIds: false })).toBe(-1026);
	});
});
