import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The servers of the test bed (testbed/testbed.json's `servers`). */
export const testbedServers = ['debian', 'current', 'current2', 'current3'] as const;
export type TestbedServer = (typeof testbedServers)[number];

/** Where one test-bed server lives and who may sign in: written once, in testbed/testbed.json. */
export interface Testbed {
	/**
	 * Which server: `debian` (Debian 12's tt-rss, API 15), `current` (the tt-rss of 2026, API 23) or
	 * `current2` (a second copy of the current one, for the e2e suite's second worker) or `current3`
	 * (a third, for the long chaos runs beside the e2e suite).
	 */
	server: TestbedServer;
	/** The API level the server is set up to report (tests use the level the server reports). */
	apiLevel: number;
	url: string;
	apiUrl: string;
	user: string;
	password: string;
	noApiUser: string;
	noApiPassword: string;
	/** A second API-enabled user with a feed of its own (two-account tests). */
	secondUser: string;
	secondPassword: string;
	/**
	 * Only on servers with the browser opt-in (`current`): API access on, browser API access off,
	 * so a browser's requests answer API_DISABLED after a successful login.
	 */
	noBrowserUser?: string;
	noBrowserPassword?: string;
	feedsHost: string;
	/**
	 * More names of the feeds host (space-separated, in /etc/hosts beside feedsHost): the image
	 * and media hosts of the real-world-shaped feeds (reddit.xml, craigslist.xml, podcast-itunes.xml),
	 * so a request straight to one is told apart from tt-rss's own.
	 */
	feedsAliases: string;
	feedsAddress: string;
	dbName: string;
	dbUser: string;
	dbPassword: string;
	/**
	 * The folder tt-rss loads `plugins.local/<name>/init.php` from, served at `<url>plugins.local/`
	 * (the archive's install test unpacks into it). Default: Debian's `/usr/share/tt-rss/www/…`.
	 */
	pluginsDir?: string;
}

/** Debian's tt-rss (the first test bed): its web root is /usr/share/tt-rss/www. */
export const DEBIAN_PLUGINS_DIR = '/usr/share/tt-rss/www/plugins.local';

const root = fileURLToPath(new URL('../../', import.meta.url));

type TestbedJson = Omit<Testbed, 'server'> & {
	servers: Record<TestbedServer, Partial<Omit<Testbed, 'server'>> & { copyOf?: TestbedServer }>;
};

const json = JSON.parse(readFileSync(`${root}testbed/testbed.json`, 'utf8')) as TestbedJson;

/**
 * The server named by TESTBED; unset, the current tt-rss: the server most readers run, so every
 * suite meets it first (CI runs a compatibility subset against Debian's with TESTBED=debian).
 */
export function testbedServerFromEnv(env: NodeJS.ProcessEnv = process.env): TestbedServer {
	const name = workerServer(env) ?? env.TESTBED ?? 'current';
	if (!(testbedServers as readonly string[]).includes(name)) {
		throw new Error(`TESTBED=${name}: expected one of ${testbedServers.join(', ')}`);
	}
	return name as TestbedServer;
}

/**
 * The servers of a run whose workers each test a server of their own (`E2E_WORKER_SERVERS`, a
 * comma-separated list set by playwright.config.ts): the one of this worker (Playwright's
 * `TEST_PARALLEL_INDEX`), or undefined outside such a run.
 */
export function workerServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const servers = env.E2E_WORKER_SERVERS?.split(',');
	const index = Number(env.TEST_PARALLEL_INDEX ?? 0);
	return servers && Number.isInteger(index) ? servers[index] : undefined;
}

/**
 * One server's facts: testbed.json's shared top level, then the values of the server it is a copy
 * of (`copyOf`), then its own (as lib.sh's load_server).
 */
export function testbedFor(server: TestbedServer): Testbed {
	const { servers, ...shared } = json;
	const { copyOf, ...own } = servers[server];
	const original = copyOf ? servers[copyOf] : {};
	return { ...shared, ...original, ...own, server };
}

export const testbed: Testbed = testbedFor(testbedServerFromEnv());

/**
 * Puts the seeded state of the server under test back (a database restored from a template, under
 * a second).
 */
export function resetTestbed(): void {
	execFileSync('bash', [`${root}testbed/reset.sh`, testbed.server], {
		stdio: ['ignore', 'ignore', 'inherit'],
		// Synchronous, so no test timeout can end it: a reset that cannot get its lock must end itself.
		timeout: 180_000,
		// Apache's and PostgreSQL's tools live in sbin, which a test runner's PATH may lack.
		env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` }
	});
}

const conditionOptions = () => ({
	timeout: 120_000,
	env: {
		...process.env,
		TESTBED: testbed.server,
		PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin`
	}
});

/**
 * Turns a condition of the server under test on (testbed/condition.sh): `daemon on|off`,
 * `feed-error FILE`, `update-feed ID` (the server fetches that feed now, as its web user),
 * `sessions-end USER` (USER's tt-rss sessions deleted), `postgres-restart`.
 */
export function testbedCondition(...args: string[]): void {
	execFileSync('bash', [`${root}testbed/condition.sh`, ...args], {
		stdio: ['ignore', 'ignore', 'inherit'],
		...conditionOptions()
	});
}

/** testbedCondition without blocking: for a condition that takes a while (a restart). */
export async function testbedConditionAsync(...args: string[]): Promise<void> {
	await promisify(execFile)('bash', [`${root}testbed/condition.sh`, ...args], conditionOptions());
}
