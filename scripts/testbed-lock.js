// The test bed's lock (`flock /tmp/e2e-run.lock …`): one user of the shared server at a time.
// Shared by the contract tests (tests/contract/testbed.ts) and the start guard
// (scripts/start-guard.js), which take it themselves unless a process above them holds it.
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';

export const TESTBED_LOCK = '/tmp/e2e-run.lock';

/**
 * True when a process above this one (e.g. `flock LOCK npm test`) already holds the lock: taking
 * it again from here would wait for ever.
 * @returns {boolean}
 */
export function lockHeldByAncestor() {
	try {
		closeSync(openSync(TESTBED_LOCK, 'a'));
		const inode = statSync(TESTBED_LOCK).ino;
		const holders = readFileSync('/proc/locks', 'utf8')
			.split('\n')
			.filter((line) => line.includes(' FLOCK ') && line.includes(`:${inode} `))
			.map((line) => Number(line.trim().split(/\s+/)[4]));
		for (let pid = process.pid; pid > 1;) {
			if (holders.includes(pid)) return true;
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
		}
	} catch {
		// No /proc (not Linux): take the lock normally.
	}
	return false;
}
