/**
 * Quiet hours: a daily span of the device's local time in which no alert is shown (what arrives
 * is summed up after). A span may cross midnight (22:00 → 07:00); start equal to end is no span.
 */

export interface QuietHours {
	enabled: boolean;
	/** `HH:MM`, 24-hour clock, device time. */
	start: string;
	end: string;
}

export const DEFAULT_QUIET: QuietHours = { enabled: false, start: '22:00', end: '07:00' };

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight, or undefined for anything that is not `HH:MM`. */
export function minutesOf(time: string): number | undefined {
	const m = TIME.exec(time);
	return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

export function parseQuiet(value: unknown): QuietHours {
	if (typeof value !== 'object' || value === null) return { ...DEFAULT_QUIET };
	const v = value as Record<string, unknown>;
	const time = (x: unknown, fallback: string): string =>
		typeof x === 'string' && minutesOf(x) !== undefined ? x : fallback;
	return {
		enabled: v.enabled === true,
		start: time(v.start, DEFAULT_QUIET.start),
		end: time(v.end, DEFAULT_QUIET.end)
	};
}

/** Whether `at` (a local date and time) falls inside the quiet hours. */
export function isQuiet(quiet: QuietHours, at: Date): boolean {
	if (!quiet.enabled) return false;
	const start = minutesOf(quiet.start);
	const end = minutesOf(quiet.end);
	if (start === undefined || end === undefined || start === end) return false;
	const now = at.getHours() * 60 + at.getMinutes();
	// Within one day the span is [start, end); across midnight it is the two ends of the day.
	return start < end ? now >= start && now < end : now >= start || now < end;
}
