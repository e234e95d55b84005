import { describe, expect, it } from 'vitest';
import { plainFeedError } from './feed-error';
import { feedHealthLines, feedHealthSummary } from './feed-health';

describe('plainFeedError', () => {
	it.each([
		// Recorded from the test beds: Debian's 2021 server (python's http.server behind it) and the
		// current one (Guzzle's status line).
		['HTTP/1.0 404 File not found', 'no longer exists on its site (HTTP 404)'],
		['HTTP Code: 410 Gone', '(HTTP 410)'],
		['HTTP/1.1 403 Forbidden', 'refuses to let the server read this feed (HTTP 403)'],
		['HTTP/2 429 Too Many Requests (updates throttled for 3600 seconds.)', 'fetch less often'],
		['HTTP/1.1 503 Service Unavailable', 'an error of its own (HTTP 503)'],
		['HTTP/1.1 301 Moved Permanently', 'answered with HTTP 301'],
		// Recorded from the current test bed (a feed whose address answers 404): Guzzle's message,
		// the address (ending in .xml: no parser error) and the page's start with literal \x0A.
		[
			'Client error: `GET http://feeds.test/feeds/gone-big.xml` resulted in a `404 File not found` response:\\x0A<!DOCTYPE HTML>\\x0A<html lang="en">',
			'no longer exists on its site (HTTP 404)'
		],
		[
			'Server error: `GET https://example.org/feed.xml` resulted in a `503 Service Unavailable` response',
			'an error of its own (HTTP 503)'
		],
		['cURL error 6: Could not resolve host: gone.example', 'name could not be found'],
		[
			'URL hostname failed to resolve or resolved to a loopback address (127.0.0.1)',
			'name could not be found'
		],
		['Requested URL failed extended validation.', 'refuses to fetch this address'],
		['cURL error 28: Operation timed out after 30001 milliseconds', 'too long to answer'],
		['cURL error 60: SSL certificate problem: certificate has expired', 'certificate'],
		['cURL error 7: Failed to connect to x port 443: Connection refused', 'refused the connection'],
		['Successful response, but no content was received.', 'answered with nothing'],
		['Error while parsing feed: XML error', 'not valid RSS or Atom'],
		['something nobody has seen', 'could not update this feed']
	])('%s', (raw, words) => {
		expect(plainFeedError(raw)).toContain(words);
	});

	it('reads only the start of a huge error text', () => {
		const started = performance.now();
		expect(plainFeedError(`${'x'.repeat(5_000_000)} HTTP/1.1 404`)).toContain('could not update');
		expect(performance.now() - started).toBeLessThan(1_000);
	});
});

describe('feedHealthLines', () => {
	it('says nothing for a feed without an error', () => {
		expect(feedHealthLines({})).toEqual([]);
		expect(feedHealthLines({ error: '', lastTried: 1_800_000_000 })).toEqual([]);
	});

	it('says why, when news last came, when the server tried and how often, and its own words', () => {
		const lines = feedHealthLines({
			error: 'HTTP/1.1 404 Not Found',
			newestArticle: 1_790_000_000,
			lastTried: 1_800_000_000,
			updateInterval: 30
		});
		expect(lines[0]).toBe(
			'Updates fail: The feed’s address no longer exists on its site (HTTP 404).'
		);
		expect(lines[1]).toMatch(/^Its newest article is from /);
		expect(lines[2]).toMatch(/^Last tried /);
		expect(lines[3]).toBe('The server tries every 30 minutes.');
		expect(lines[4]).toBe('The server said: “HTTP/1.1 404 Not Found”');
	});

	it('shows the server’s own words short and on one line', () => {
		const raw =
			'Client error: `GET http://feeds.test/feeds/gone-big.xml` resulted in a `404 File not found` response:\\x0A\\x0A    \\x0A<html>' +
			'x'.repeat(500);
		const said = feedHealthLines({ error: raw }).at(-1) ?? '';
		expect(said).toMatch(
			/^The server said: “Client error: `GET http:\/\/feeds\.test\/feeds\/gone-big\.xml` resulted in a `404 File not found` response: <html>x+…”$/
		);
		expect(said.length).toBeLessThan(200);
	});

	it('leaves out what the server did not say (older servers: no interval, no attempt time)', () => {
		expect(feedHealthLines({ error: 'HTTP/1.0 404 File not found' })).toHaveLength(2);
	});
});

describe('feedHealthSummary (the feed settings sheet)', () => {
	it('says when a healthy feed was last updated, or that nothing is known', () => {
		const [line] = feedHealthSummary({ lastTried: 1_800_000_000 });
		expect(line).toMatch(/^Updated without errors, last on .*2027/);
		expect(feedHealthSummary({ error: '' })).toEqual(['No update errors are known.']);
	});

	it('is the failure’s lines when the feed fails', () => {
		const facts = { error: 'HTTP/1.1 404 Not Found', lastTried: 1_800_000_000 };
		expect(feedHealthSummary(facts)).toEqual(feedHealthLines(facts));
		expect(feedHealthSummary(facts)[0]).toContain('HTTP 404');
	});
});
