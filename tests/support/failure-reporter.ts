/**
 * Prints, for each test attempt that failed (a retry that then passes included), the page's state
 * at the failure (Playwright's `error-context`, an accessibility snapshot) and what the pages did
 * (`app-log`, tests/e2e/support/fixtures.ts). The traces and screenshots stay in test-results/,
 * which the next Playwright run of the same CI deletes; this keeps the story in CI's log.
 */
import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Each attachment is cut to this many characters: a quarter from its start, the rest its end. */
const LIMIT = 12_000;

function cut(all: string): string {
	if (all.length <= LIMIT) return all;
	const left = all.length - LIMIT;
	return `${all.slice(0, LIMIT / 4)}\n… (${left} characters left out)\n${all.slice(-(LIMIT * 3) / 4)}`;
}

/**
 * An attachment's text; of the error context not its instructions to a reader nor the test's source
 * (the list reporter prints the source): the error and the page's snapshot, in the error details
 * or in a section of its own.
 */
function text(attachment: TestResult['attachments'][number]): string | undefined {
	try {
		const body = attachment.body ?? (attachment.path ? readFileSync(attachment.path) : undefined);
		if (!body) return undefined;
		const all = body.toString('utf8');
		const shown =
			attachment.name === 'error-context'
				? all.split('\n# Test source')[0]?.replace(/^# Instructions[\s\S]*?\n(?=# )/, '')
				: all;
		return cut(shown ?? all);
	} catch {
		return undefined;
	}
}

export default class FailureReporter implements Reporter {
	onTestEnd(test: TestCase, result: TestResult): void {
		if (result.status === test.expectedStatus || result.status === 'skipped') return;
		const shown = result.attachments.filter(
			(a) => a.name === 'error-context' || a.name === 'app-log'
		);
		if (shown.length === 0) return;
		const title = `${test.titlePath().filter(Boolean).join(' › ')} (attempt ${result.retry + 1})`;
		const parts = shown.map((a) => `--- ${a.name}\n${text(a) ?? '(unreadable)'}`);
		process.stdout.write(`\n=== failed: ${title}\n${parts.join('\n')}\n=== end of ${title}\n\n`);
	}

	printsToStdio(): boolean {
		return false;
	}
}
