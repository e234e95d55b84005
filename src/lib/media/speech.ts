/**
 * Read aloud (Web Speech API): the article's title, then its body as text, one utterance per
 * paragraph or sentence group. Short utterances because Chromium's voices stop by themselves
 * after about 15 s of one utterance, and because pause/resume and the lock screen's controls act
 * on an utterance boundary in some engines. The browser's speechSynthesis is passed in, so the
 * unit test drives a small fake of it (Chromium headless and WebKitGTK often have no voices).
 */

/** The parts of SpeechSynthesisUtterance this module sets and listens to. */
export interface UtteranceLike {
	text: string;
	lang: string;
	rate: number;
	voice: SpeechSynthesisVoice | null;
	onend: ((ev: never) => unknown) | null;
	onerror: ((ev: never) => unknown) | null;
}

/** The parts of speechSynthesis used here. */
export interface SynthLike {
	speak(utterance: never): void;
	cancel(): void;
	pause(): void;
	resume(): void;
	getVoices(): SpeechSynthesisVoice[];
}

export type SpeechState = 'idle' | 'speaking' | 'paused';

/** Longest utterance, in characters (about 15 s of speech at the default rate). */
export const MAX_CHUNK = 220;

function splitLong(text: string, max: number): string[] {
	if (text.length <= max) return [text];
	const sentences = text.split(/(?<=[.!?…。！？])\s+/u);
	const out: string[] = [];
	let current = '';
	const flush = (): void => {
		if (current) out.push(current);
		current = '';
	};
	for (const sentence of sentences) {
		if (sentence.length > max) {
			flush();
			// One sentence longer than an utterance: cut at spaces.
			let rest = sentence;
			while (rest.length > max) {
				const cut = rest.lastIndexOf(' ', max);
				const at = cut > max / 2 ? cut : max;
				out.push(rest.slice(0, at).trim());
				rest = rest.slice(at).trim();
			}
			current = rest;
		} else if (current && current.length + 1 + sentence.length > max) {
			flush();
			current = sentence;
		} else {
			current = current ? `${current} ${sentence}` : sentence;
		}
	}
	flush();
	return out.filter((s) => s !== '');
}

/**
 * What is spoken: the title, then each non-empty line of the body's text (as `innerText` gives
 * it: one line per paragraph, list item or heading), long ones cut at sentence ends.
 */
export function speechChunks(title: string, bodyText: string, max = MAX_CHUNK): string[] {
	const lines = [title, ...bodyText.split(/\n+/)]
		.map((line) => line.replace(/\s+/g, ' ').trim())
		.filter((line) => line !== '');
	return lines.flatMap((line) => splitLong(line, max));
}

/** The voice for the article's language (`lang` such as `ja` or `en-GB`), if one is installed. */
export function pickVoice(
	voices: readonly SpeechSynthesisVoice[],
	lang: string | undefined
): SpeechSynthesisVoice | undefined {
	if (!lang) return voices.find((v) => v.default);
	const wanted = lang.toLowerCase();
	const primary = wanted.split('-')[0] ?? wanted;
	return (
		voices.find((v) => v.lang.toLowerCase() === wanted) ??
		voices.find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === primary)
	);
}

/**
 * Speaks a list of chunks in order, with pause, resume and stop. Each start or stop begins a new
 * run: events of an utterance from an earlier run (cancel() fires its `end` or `error` in some
 * engines) are ignored.
 */
export class SpeechReader {
	#state: SpeechState = 'idle';
	#run = 0;
	readonly #synth: SynthLike;
	readonly #utterance: (text: string) => UtteranceLike;
	onchange: ((state: SpeechState) => void) | undefined;

	constructor(synth: SynthLike, utterance: (text: string) => UtteranceLike) {
		this.#synth = synth;
		this.#utterance = utterance;
	}

	get state(): SpeechState {
		return this.#state;
	}

	#set(state: SpeechState): void {
		if (this.#state === state) return;
		this.#state = state;
		this.onchange?.(state);
	}

	start(
		chunks: readonly string[],
		options: { lang?: string; voice?: SpeechSynthesisVoice; rate?: number } = {}
	): void {
		this.#synth.cancel();
		const run = ++this.#run;
		if (chunks.length === 0) {
			this.#set('idle');
			return;
		}
		const speakFrom = (index: number): void => {
			if (run !== this.#run) return;
			const text = chunks[index];
			if (text === undefined) {
				this.#set('idle');
				return;
			}
			const utterance = this.#utterance(text);
			if (options.lang) utterance.lang = options.lang;
			if (options.voice) utterance.voice = options.voice;
			utterance.rate = options.rate ?? 1;
			utterance.onend = () => speakFrom(index + 1);
			utterance.onerror = () => {
				// An engine error ends the reading; a cancel() of this run is already ignored above.
				if (run === this.#run) this.#set('idle');
			};
			this.#synth.speak(utterance as never);
		};
		this.#set('speaking');
		speakFrom(0);
	}

	pause(): void {
		if (this.#state !== 'speaking') return;
		this.#synth.pause();
		this.#set('paused');
	}

	resume(): void {
		if (this.#state !== 'paused') return;
		this.#synth.resume();
		this.#set('speaking');
	}

	stop(): void {
		this.#run++;
		if (this.#state !== 'idle') this.#synth.cancel();
		this.#set('idle');
	}
}
