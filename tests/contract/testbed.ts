/**
 * Contract-test helpers: the test bed's facts (testbed/testbed.json), a database reset, and
 * clients of the real module over Node's fetch.
 */
import { execFileSync, spawn } from 'node:child_process';
import { lockHeldByAncestor, TESTBED_LOCK } from '../../scripts/testbed-lock.js';
import { testbed } from '../support/testbed';

export { resetTestbed, testbed } from '../support/testbed';
export { idsByTitle, loggedInClient, newClient } from '../support/server';

const LOCK = TESTBED_LOCK;

/**
 * Waits for exclusive use of the test bed (other engineers' end-to-end runs reset the same
 * database) and returns the function that releases it. Call in beforeAll, release in afterAll.
 */
export async function lockTestbed(): Promise<() => void> {
	if (lockHeldByAncestor()) return () => {};
	// -w: a lock that is never released ends the run with a message instead of hanging it.
	const child = spawn('flock', ['-w', '600', LOCK, '-c', 'echo locked; exec cat'], {
		stdio: ['pipe', 'pipe', 'inherit']
	});
	await new Promise<void>((resolve, reject) => {
		child.stdout.once('data', () => resolve());
		child.once('error', reject);
		child.once('exit', (code) =>
			reject(
				new Error(`flock ${LOCK} exited with ${String(code)} (held for 600 s by another run?)`)
			)
		);
	});
	return () => {
		child.stdin.end();
	};
}

/**
 * Runs SQL on the test bed's database, for state the API cannot set up (e.g. ageing articles'
 * `date_entered` for catch-up modes). Tests that use it must reset the database afterwards.
 */
export function sql(query: string): string {
	return execFileSync(
		'psql',
		['-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-h', 'localhost', '-U', testbed.dbUser],
		{
			input: query,
			encoding: 'utf8',
			env: { ...process.env, PGPASSWORD: testbed.dbPassword, PGDATABASE: testbed.dbName }
		}
	);
}
