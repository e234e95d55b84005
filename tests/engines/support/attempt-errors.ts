/**
 * Each failed attempt's error, printed when it happens (a setup file of the engines suite). On CI a
 * test gets one retry, and Vitest reports a test that passed on its retry with no word of why the
 * first attempt failed: the retry count alone cannot be traced to a cause.
 */
import { beforeEach } from 'vitest';

beforeEach((context) => {
	context.onTestFailed(({ task }) => {
		const errors = (task.result?.errors ?? []).map((e) => e.stack ?? e.message).join('\n');
		console.error(
			`[engines] attempt ${(task.result?.retryCount ?? 0) + 1} of ${task.suite?.name ?? ''} "${task.name}" failed:\n${errors}`
		);
	});
});
