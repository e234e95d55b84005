/**
 * The end-to-end suite's standard import. Every spec under tests/e2e imports from here:
 *
 *     import { test, expect } from './support/fixtures';
 *
 * instead of from '@playwright/test'. It adds automatic guards to every test:
 *
 * - CSP: each page and frame reports `securitypolicyviolation` events; the test fails if any fired.
 *   The suite runs against `vite preview`, which sends the production policy (deploy/csp.js), so a
 *   violation here is a violation in production. A test that provokes violations on purpose sets
 *   `test.use({ failOnCspViolation: false })` and inspects the `cspViolations` fixture itself.
 * - Network: the browser itself sends every request to a host other than localhost, 127.0.0.1, [::1]
 *   and the test bed's feed host (by any of its names) to a proxy that does not exist, so no test
 *   ever sends traffic off the machine (feeds link to real sites): chromium.config.js, its flags on
 *   every browser the suite launches, persistent contexts too.
 * - Routes: at the test's end its page routes are removed quietly, so a request the app still makes
 *   then (its own sync) cannot fail a test that passed.
 * - Evidence: what the pages did (addresses, console lines, API calls and their answers' status,
 *   times from the test's start) is attached to a test that fails, and CI's reporter prints it
 *   (tests/support/failure-reporter.ts): a failure that a retry then passes leaves its story in the
 *   log instead of a trace the next stage's run deletes.
 */
import {
	test as base,
	expect,
	type BrowserContext,
	type Page,
	type Request
} from '@playwright/test';

export { expect };

export interface CspViolation {
	page: string;
	documentURI: string;
	blockedURI: string;
	violatedDirective: string;
	effectiveDirective: string;
	sourceFile: string;
	lineNumber: number;
	sample: string;
}

const BINDING = '__e2eReportCspViolation';

/**
 * Collects every `securitypolicyviolation` of every page and frame of `context` into the returned
 * array (live). The automatic fixture does this for the test's context; call it yourself for a
 * context you launch by hand (e.g. a persistent one).
 */
export async function collectCspViolations(context: BrowserContext): Promise<CspViolation[]> {
	const violations: CspViolation[] = [];
	await context.exposeBinding(BINDING, ({ page }, violation: Omit<CspViolation, 'page'>) => {
		violations.push({ page: page.url(), ...violation });
	});
	await context.addInitScript((binding: string) => {
		addEventListener(
			'securitypolicyviolation',
			(event) => {
				const report = (globalThis as unknown as Record<string, (v: unknown) => unknown>)[binding];
				void report?.({
					documentURI: event.documentURI,
					blockedURI: event.blockedURI,
					violatedDirective: event.violatedDirective,
					effectiveDirective: event.effectiveDirective,
					sourceFile: event.sourceFile,
					lineNumber: event.lineNumber,
					sample: event.sample
				});
			},
			{ capture: true }
		);
	}, BINDING);
	return violations;
}

interface Fixtures {
	/** Violations seen so far in this test (all pages and frames of its context). */
	cspViolations: CspViolation[];
	/** Set false (test.use) to inspect `cspViolations` instead of failing on them. */
	failOnCspViolation: boolean;
	/** At a test's end, page routes still answering a request are dropped quietly; automatic. */
	routesSettled: void;
	/** What the pages did, attached as `app-log` when the test fails; automatic. */
	pageEvidence: void;
}

/** At most this many lines are kept (the last ones): a failure's story, not a whole session's. */
const EVIDENCE_LINES = 400;

/** The fields of an API request that say what it asked (never its `sid` or a password). */
const SHOWN_FIELDS = [
	'feed_id',
	'is_cat',
	'view_mode',
	'skip',
	'limit',
	'since_id',
	'order_by',
	'mode',
	'field'
];

/** A request's JSON body (`{}` without one); undefined when it is not JSON. */
export function apiBody(postData: string | null): Record<string, unknown> | undefined {
	try {
		return JSON.parse(postData ?? '{}') as Record<string, unknown>;
	} catch {
		return undefined;
	}
}

/** What a request to tt-rss's API asked: its op and a few plain fields. */
function apiCall(postData: string | null): string {
	const body = apiBody(postData);
	if (!body) return '?';
	const fields = SHOWN_FIELDS.filter((f) => body[f] !== undefined).map(
		(f) => `${f}=${String(body[f])}`
	);
	const ids = typeof body.article_ids === 'string' ? ` ids=${body.article_ids.slice(0, 60)}` : '';
	return `${String(body.op)}${fields.length ? ` ${fields.join(' ')}` : ''}${ids}`;
}

export const test = base.extend<Fixtures>({
	failOnCspViolation: [true, { option: true }],

	cspViolations: [
		async ({ context, failOnCspViolation }, use) => {
			const violations = await collectCspViolations(context);
			await use(violations);
			if (failOnCspViolation) {
				expect(violations, 'Content-Security-Policy violations during the test').toEqual([]);
			}
		},
		{ auto: true }
	],

	// A test whose assertions are met ends while the app may still be talking to the server (its
	// sync runs by itself); a route of the test answering such a request would then fail the test
	// after it passed ("route.fetch: Test ended", "Response has been disposed").
	routesSettled: [
		async ({ context }, use) => {
			await use();
			await Promise.all(context.pages().map((p) => p.unrouteAll({ behavior: 'ignoreErrors' })));
		},
		{ auto: true }
	],

	pageEvidence: [
		async ({ context }, use, testInfo) => {
			const started = Date.now();
			const lines: string[] = [];
			const note = (line: string): void => {
				lines.push(`${String(Date.now() - started).padStart(6)} ms  ${line}`);
				if (lines.length > EVIDENCE_LINES) lines.shift();
			};
			const watch = (page: Page): void => {
				const name = `page ${context.pages().indexOf(page) + 1}`;
				page.on('framenavigated', (frame) => {
					if (frame === page.mainFrame()) note(`${name} at ${frame.url()}`);
				});
				page.on('console', (message) =>
					note(`${name} console.${message.type()}: ${message.text()}`)
				);
				page.on('pageerror', (error) => note(`${name} error: ${error.message}`));
				page.on('crash', () => note(`${name} crashed`));
				page.on('close', () => note(`${name} closed`));
			};
			context.pages().forEach(watch);
			context.on('page', watch);
			// The service worker's own fetch of a request is its second sighting: marked "(worker)".
			const by = (request: Request): string => (request.serviceWorker() ? ' (worker)' : '');
			context.on('requestfinished', (request) => {
				if (!request.url().includes('/api/')) return;
				// The context may close first (the test's end): nothing to note then.
				request.response().then(
					(response) =>
						note(
							`api ${apiCall(request.postData())}${by(request)} → ${response?.status() ?? 'no answer'}`
						),
					() => undefined
				);
			});
			context.on('requestfailed', (request) => {
				const what = request.url().includes('/api/')
					? `api ${apiCall(request.postData())}`
					: request.url();
				note(`${what}${by(request)} failed: ${request.failure()?.errorText ?? '?'}`);
			});
			await use();
			if (testInfo.status !== testInfo.expectedStatus)
				await testInfo.attach('app-log', { body: lines.join('\n'), contentType: 'text/plain' });
		},
		{ auto: true }
	]
});
