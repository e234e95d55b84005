// The release archive's image proxy (package/init.php) never has tt-rss fetch an address a feed's
// author could aim at the server's own network (issue 55). From the review's repro: it signed and
// fetched any http(s) image address an article names, and on Debian's 2021 tt-rss the proxy's
// only other guard was UrlHelper::validate($url, true), which stops just the host names
// "localhost", "::1" and "127.*" and ports other than 80/443 (and fetch() a host whose
// gethostbyname() starts with "127."); its curl also followed redirects (CURLOPT_FOLLOWLOCATION,
// 20 hops) without checking where they lead. The current tt-rss still lets private addresses
// through on ports 80 and 443. The plugin now checks by itself, on both versions' Plugin class.
//
// plugin-image-proxy.php loads the plugin with stand-ins: by default a resolver answering from a
// table and a transport that records what it is asked for, so no test here connects anywhere
// but to its own servers on loopback.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEEDS, hasPhp, listen, proxyServers, run, runAsync } from './testing/plugin-proxy';

const SERVERS = proxyServers('plugin-image-proxy-');

const INTERNAL = [
	'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
	'http://10.0.0.5/admin/reboot',
	'http://0x7f.0.0.1/',
	'http://[::ffff:127.0.0.1]/'
];

const debian = SERVERS[0];
describe.skipIf(!hasPhp || !debian.available)('image proxy on Debian 2021 tt-rss', () => {
	const run2021 = (urls: string[]) =>
		run(debian, urls, {
			force: true,
			compare: true,
			hosts: { [FEEDS.feedsHost]: [FEEDS.feedsAddress] },
			allow: `${FEEDS.feedsAddress}/32`
		});

	it('never has tt-rss fetch an internal address that a feed put in an article', () => {
		const checked = run2021(INTERNAL);
		// 2021's own checks in fetch() let every one of them through (what the proxy relied on).
		expect(checked.map((c) => c.validate_2021)).toEqual(INTERNAL.map(() => true));
		expect(
			checked.filter((c) => c.fetched.length > 0).map((c) => c.url),
			'internal addresses the proxy asked tt-rss to fetch'
		).toEqual([]);
	});

	it('does not let 2021’s curl follow a redirect it never checks', () => {
		const [checked] = run2021(['http://feeds.test/a.png']);
		expect(checked?.fetched).toEqual(['http://feeds.test/a.png']);
		expect(checked?.fetch_options?.followlocation).toBe(false);
	});
});

/** Each spelling of an address that is not public unicast, and what the refusal names. */
const REFUSED: Array<[string, RegExp]> = [
	['http://127.0.0.1/x.png', /127\.0\.0\.1 is loopback/],
	['http://127.0.0.1./x.png', /127\.0\.0\.1 is loopback/],
	['http://127.1/x.png', /spelled other than/],
	['http://0x7f.0.0.1/x.png', /spelled other than/],
	['http://0x7f000001/x.png', /spelled other than/],
	['http://2130706433/x.png', /spelled other than/],
	['http://017700000001/x.png', /spelled other than/],
	['http://0177.0.0.1/x.png', /spelled other than/],
	['http://127.000.000.001/x.png', /spelled other than/],
	['http://%31%32%37.0.0.1/x.png', /not a host name/],
	['http://localhost/x.png', /localhost/],
	['http://LOCALHOST./x.png', /localhost/],
	['http://app.localhost/x.png', /localhost/],
	['http://intranet/x.png', /without a domain/],
	['http://0.0.0.0/x.png', /“this network”/],
	['http://0.1.2.3/x.png', /“this network”/],
	['http://10.0.0.5/x.png', /private/],
	['http://172.16.0.1/x.png', /private/],
	['http://172.31.255.255/x.png', /private/],
	['http://192.168.1.1/x.png', /private/],
	['http://100.64.0.1/x.png', /carrier-grade NAT/],
	['http://169.254.169.254/latest/meta-data/', /link-local/],
	['http://192.0.0.8/x.png', /IETF/],
	['http://192.0.2.1/x.png', /documentation/],
	['http://198.51.100.7/x.png', /documentation/],
	['http://203.0.113.9/x.png', /documentation/],
	['http://198.18.0.1/x.png', /benchmarking/],
	['http://224.0.0.1/x.png', /multicast/],
	['http://239.255.255.250/x.png', /multicast/],
	['http://240.0.0.1/x.png', /reserved or broadcast/],
	['http://255.255.255.255/x.png', /reserved or broadcast/],
	['http://[::1]/x.png', /::1 is loopback/],
	['http://[0:0:0:0:0:0:0:1]/x.png', /::1 is loopback/],
	['http://[::]/x.png', /unspecified/],
	['http://[::ffff:127.0.0.1]/x.png', /IPv4-mapped loopback/],
	['http://[::ffff:7f00:1]/x.png', /IPv4-mapped loopback/],
	['http://[::ffff:a9fe:a9fe]/x.png', /IPv4-mapped link-local/],
	['http://[0:0:0:0:0:ffff:10.0.0.5]/x.png', /IPv4-mapped private/],
	['http://[::127.0.0.1]/x.png', /IPv4-compatible/],
	['http://[64:ff9b::a9fe:a9fe]/x.png', /NAT64 link-local/],
	['http://[64:ff9b::10.0.0.5]/x.png', /NAT64 private/],
	['http://[64:ff9b:1::1]/x.png', /local NAT64/],
	['http://[fe80::1]/x.png', /link-local/],
	['http://[fe80::1%25eth0]/x.png', /not a host and port/],
	['http://[fc00::1]/x.png', /unique-local/],
	['http://[fd12:3456:789a::1]/x.png', /unique-local/],
	['http://[fec0::1]/x.png', /site-local/],
	['http://[ff02::1]/x.png', /multicast/],
	['http://[100::1]/x.png', /discard-only/],
	['http://[2001:db8::1]/x.png', /documentation/],
	['http://[3fff::1]/x.png', /documentation/],
	['http://[2002:7f00:1::1]/x.png', /6to4/],
	['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x.png', /IETF/],
	['http://[4000::1]/x.png', /reserved IPv6/],
	['http://93.184.215.14:8080/x.png', /port 8080/],
	['https://public.example:22/x.png', /port 22/],
	['http://user:secret@public.example/x.png', /credentials/],
	['http://public.example@127.0.0.1/x.png', /credentials/],
	['http://public.example\\@127.0.0.1/x.png', /not an http\(s\) address/]
];

/** Names whose addresses, all or one of them, are not public (the stand-in resolver's answers). */
const NAMES: Record<string, string[]> = {
	'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
	'private.example': ['10.0.0.5'],
	'metadata.example': ['169.254.169.254'],
	'one-bad.example': ['93.184.215.14', '127.0.0.1'],
	'v6-internal.example': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'fd00::1'],
	'mapped.example': ['::ffff:127.0.0.1'],
	'cgnat.example': ['100.100.100.100']
};

describe.each(SERVERS)('the image proxy on $name', (server) => {
	const skip = !hasPhp || !server.available;

	it.skipIf(skip)('neither signs nor fetches any spelling of a non-public address', () => {
		const checked = run(
			server,
			REFUSED.map(([url]) => url),
			{ force: true, hosts: NAMES }
		);
		REFUSED.forEach(([url, reason], i) => {
			const c = checked[i];
			expect(c?.url).toBe(url);
			// Not signed: the article keeps the address as it was, and reader_images lacks it.
			expect(c?.signed, url).toBe(false);
			expect(c?.content, url).not.toContain('pmethod=image');
			// Asked anyway (signed by the test, as no feed can): refused before any connection.
			expect(c?.status, url).toBe(403);
			expect(c?.body, url).toMatch(reason);
			expect(c?.fetched, url).toEqual([]);
		});
	});

	it.skipIf(skip)(
		'resolves a name when asked, and refuses it when any of its addresses is not public',
		() => {
			const urls = Object.keys(NAMES)
				.filter((name) => name !== 'public.example')
				.map((name) => `https://${name}/x.png`);
			const checked = run(server, [...urls, 'https://nowhere.example/x.png'], {
				hosts: NAMES
			});
			for (const c of checked) {
				const name = new URL(c.url).hostname;
				// Names are signed (no DNS while the API answers) …
				expect(c.signed, c.url).toBe(true);
				// … and resolved when the image is asked for: refused without a connection.
				expect(c.resolved, c.url).toEqual([name]);
				expect(c.status, c.url).toBe(403);
				expect(c.body, c.url).toMatch(
					name === 'nowhere.example'
						? /does not resolve/
						: /resolves to a (private|link-local|loopback|unique-local|IPv4-mapped loopback|shared \(carrier-grade NAT\)) address/
				);
				expect(c.fetched, c.url).toEqual([]);
			}
		}
	);

	it.skipIf(skip)(
		'connects only to the addresses it checked, and follows no redirect itself',
		() => {
			const checked = run(
				server,
				[
					'https://public.example/a.png',
					'http://93.184.215.14/b.png',
					'http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/c.png',
					'//public.example/d.png#top'
				],
				{ hosts: NAMES }
			);
			expect(checked.map((c) => [c.signed, c.status])).toEqual([
				[true, 200],
				[true, 200],
				[true, 200],
				[true, 200]
			]);
			expect(checked.map((c) => c.fetch_options)).toEqual([
				{
					url: 'https://public.example/a.png',
					host: 'public.example',
					port: 443,
					addresses: NAMES['public.example'],
					followlocation: false,
					max_size: 10485760,
					timeout: 20,
					accept: 'image/avif,image/webp,image/png,image/*;q=0.8'
				},
				expect.objectContaining({
					url: 'http://93.184.215.14/b.png',
					host: '93.184.215.14',
					addresses: ['93.184.215.14']
				}),
				expect.objectContaining({
					url: 'http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/c.png',
					addresses: ['2606:2800:21f:cb07:6820:80da:af6b:8b2c']
				}),
				// Protocol-relative as https, without its fragment.
				expect.objectContaining({ url: 'https://public.example/d.png', port: 443 })
			]);
		}
	);

	it.skipIf(skip)(
		'checks each redirect’s target like the first address, three hops at most',
		() => {
			const hop = (n: number) => `https://public.example/hop${n}`;
			const redirects: Record<string, string> = {
				'https://public.example/to-loopback': 'http://127.0.0.1/x.png',
				'https://public.example/to-private-name': 'http://private.example/x.png',
				'https://public.example/to-odd': 'http://0x7f.0.0.1/x.png',
				'https://public.example/to-file': 'file:///etc/passwd',
				'https://public.example/to-port': 'http://public.example:6379/',
				'https://public.example/to-public': 'http://93.184.215.14/x.png',
				[hop(0)]: hop(1),
				[hop(1)]: hop(2),
				[hop(2)]: hop(3),
				[hop(3)]: hop(4)
			};
			const checked = run(
				server,
				[
					'https://public.example/to-loopback',
					'https://public.example/to-private-name',
					'https://public.example/to-odd',
					'https://public.example/to-file',
					'https://public.example/to-port',
					'https://public.example/to-public',
					hop(1),
					hop(0)
				],
				{ hosts: NAMES, redirects }
			);
			const summary = checked.map((c) => ({ status: c.status, fetched: c.fetched }));
			expect(summary).toEqual([
				{ status: 403, fetched: ['https://public.example/to-loopback'] },
				{ status: 403, fetched: ['https://public.example/to-private-name'] },
				{ status: 403, fetched: ['https://public.example/to-odd'] },
				{ status: 403, fetched: ['https://public.example/to-file'] },
				{ status: 403, fetched: ['https://public.example/to-port'] },
				{
					status: 200,
					fetched: ['https://public.example/to-public', 'http://93.184.215.14/x.png']
				},
				// hop1 → hop2 → hop3 → hop4: three redirects, then the image.
				{ status: 200, fetched: [hop(1), hop(2), hop(3), hop(4)] },
				// One more is refused.
				{ status: 502, fetched: [hop(0), hop(1), hop(2), hop(3)] }
			]);
			expect(checked[1]?.body).toMatch(/private\.example resolves to a private address/);
		}
	);

	it.skipIf(skip || !server.urlhelper)(
		'does not rely on the server’s own checks, which let internal addresses through',
		() => {
			const checked = run(server, INTERNAL, { compare: true, force: true, hosts: {} });
			const through = checked.map((c) => c.validate_2021 ?? c.validate_current);
			// 2021 lets every one through; the current one the private address on port 80.
			expect(through).toEqual(
				server.server === 'debian' ? [true, true, true, true] : [false, true, false, false]
			);
			expect(checked.map((c) => c.status)).toEqual([403, 403, 403, 403]);
		}
	);

	const hostsFile = existsSync('/etc/hosts') ? readFileSync('/etc/hosts', 'utf8') : '';
	const feedsInHosts = new RegExp(
		`^${FEEDS.feedsAddress.replace(/\./g, '\\.')}\\s.*\\b${FEEDS.feedsHost}\\b`,
		'm'
	).test(hostsFile);
	it.skipIf(skip || !feedsInHosts)(
		'resolves with the system’s resolver, and lets the administrator allow a network',
		() => {
			// The test bed's hosts file names the feeds host (a private address): no DNS asked.
			const url = `http://${FEEDS.feedsHost}/media/a.png`;
			const [refused] = run(server, [url], {});
			expect(refused?.status).toBe(403);
			expect(refused?.body).toMatch(/resolves to a private address/);
			expect(refused?.fetched).toEqual([]);
			const [allowed] = run(server, [url], { allow: `10.0.0.0/8, ${FEEDS.feedsAddress}/32` });
			expect(allowed?.status).toBe(200);
			expect(allowed?.fetch_options?.addresses).toEqual([FEEDS.feedsAddress]);
			// An allowed network is exactly that: its neighbour stays refused.
			const [neighbour] = run(server, ['http://10.213.0.1/x.png'], {
				allow: `${FEEDS.feedsAddress}/32`,
				force: true
			});
			expect(neighbour?.status).toBe(403);
		}
	);
});

/**
 * The plugin's own curl transport, to two servers of this test on loopback: the image host
 * (127.0.0.1, allowed as an administrator allows a LAN host) and a "secret" one (127.0.0.2, not
 * allowed). The image host's name is the test bed's feeds host, which the stand-in resolver maps
 * to 127.0.0.1 while the system's hosts file says another address: only the pin reaches it.
 */
describe.each(SERVERS)('the image proxy’s own fetch on $name', (server) => {
	const skip = !hasPhp || !server.available;
	const seen: string[] = [];
	const secretSeen: string[] = [];
	let image: Server;
	let secret: Server;
	let port = 0;
	let secretPort = 0;
	const PNG = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(300, 7)]);

	beforeAll(async () => {
		if (skip) return;
		const redirect = (res: ServerResponse, to: string) =>
			res.writeHead(302, { Location: to, 'Content-Type': 'text/html' }).end('moved');
		image = createServer((req, res) => {
			const path = req.url ?? '';
			seen.push(path);
			if (path === '/pic.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
			else if (path === '/hop') redirect(res, '/pic.png');
			else if (path === '/loop') redirect(res, '/loop');
			else if (path === '/to-secret')
				redirect(res, `http://127.0.0.2:${String(secretPort)}/secret`);
			else if (path === '/to-secret-name')
				redirect(res, `http://secret.test:${String(secretPort)}/secret`);
			else if (path === '/to-file') redirect(res, 'file:///etc/passwd');
			else if (path === '/big')
				res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.alloc(5000, 1));
			else if (path === '/page')
				res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hi</p>');
			else res.writeHead(404).end();
		});
		secret = createServer((req, res) => {
			secretSeen.push(req.url ?? '');
			res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
		});
		port = await listen(image, '127.0.0.1');
		secretPort = await listen(secret, '127.0.0.2');
	});
	afterAll(() => {
		image?.close();
		secret?.close();
	});

	it.skipIf(skip)(
		'fetches the pinned address, checks redirects, limits size and type',
		async () => {
			const base = `http://${FEEDS.feedsHost}:${String(port)}`;
			const paths = [
				'/pic.png',
				'/hop',
				'/loop',
				'/to-secret',
				'/to-secret-name',
				'/to-file',
				'/big',
				'/page'
			];
			const checked = await runAsync(
				server,
				paths.map((p) => base + p),
				{
					real: true,
					hosts: { [FEEDS.feedsHost]: ['127.0.0.1'], 'secret.test': ['127.0.0.2'] },
					allow: '127.0.0.1/32',
					ports: [port, secretPort],
					max_bytes: 1000
				}
			);
			expect(checked.map((c) => c.status)).toEqual([200, 200, 502, 403, 403, 403, 413, 415]);
			expect(Buffer.from(checked[0]?.body as string, 'base64').equals(PNG)).toBe(true);
			expect(checked[3]?.body).toMatch(/127\.0\.0\.2 is loopback/);
			expect(checked[4]?.body).toMatch(/secret\.test resolves to a loopback address/);
			expect(checked[5]?.body).toMatch(/not an http\(s\) address/);
			// The loop: the first request and three redirects, no more.
			expect(seen.filter((p) => p === '/loop')).toHaveLength(4);
			expect(seen.filter((p) => p === '/pic.png')).toHaveLength(2);
			// The refused redirect targets were never asked.
			expect(secretSeen).toEqual([]);
		}
	);
});
