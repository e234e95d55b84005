/**
 * Prints, for each test attempt that failed (a retry that then passes included), the page's state
 * at the failure (Playwright's `error-context`, an accessibility snapshot) and what the pages did
 * (`app-log`, tests/e2e/support/fixtures.ts). The traces and screenshots stay in test-results/,
 * which the next Playwright run of the same CI deletes; this keeps the story in CI's log.
 */
import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Each attachment is cut to this many characters (its end kept). */
const LIMIT = 12_000;

function text(attachment: TestResult['attachments'][number]): string | undefined {
	try {
		const body = attachment.body ?? (attachment.path ? readFileSync(attachment.path) : undefined);
		if (!body) return undefined;
		const all = body.toString('utf8');
		return all.length > LIMIT
			? `… (${all.length - LIMIT} characters left out)\n${all.slice(-LIMIT)}`
			: all;
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
