import { describe, expect, it } from 'vitest';
import { apiUrlFor, crossOriginWarning, defaultServer } from './server-address';

describe('server address', () => {
	it('derives the API endpoint from what the reader typed', () => {
		expect(apiUrlFor('')).toBe('/tt-rss/api/');
		expect(apiUrlFor(' /tt-rss ')).toBe('/tt-rss/api/');
		expect(apiUrlFor('https://rss.example.org/tt-rss/')).toBe(
			'https://rss.example.org/tt-rss/api/'
		);
		expect(apiUrlFor('https://rss.example.org/api/')).toBe('https://rss.example.org/api/');
	});

	it('warns before trying another origin, which tt-rss cannot allow', () => {
		expect(crossOriginWarning('/tt-rss/api/', 'https://a.test')).toBeUndefined();
		expect(crossOriginWarning('https://a.test/tt-rss/api/', 'https://a.test')).toBeUndefined();
		expect(crossOriginWarning('https://b.test/tt-rss/api/', 'https://a.test')).toMatch(
			/https:\/\/b\.test/
		);
		expect(crossOriginWarning('http://[bad', 'https://a.test')).toMatch(/not a valid URL/);
	});

	it('finds tt-rss above the plugin folder the app is unpacked in, else the proxied path', () => {
		expect(defaultServer('/tt-rss/plugins.local/reader')).toBe('/tt-rss/');
		expect(defaultServer('/plugins.local/reader')).toBe('/');
		expect(defaultServer('/rss/plugins/reader')).toBe('/rss/');
		expect(defaultServer('')).toBe('/tt-rss/');
		expect(defaultServer('/reader')).toBe('/tt-rss/');
		expect(defaultServer('/tt-rss/reader')).toBe('/tt-rss/');
		expect(defaultServer('/tt-rss/plugins.local/reader/extra')).toBe('/tt-rss/');
	});
});
