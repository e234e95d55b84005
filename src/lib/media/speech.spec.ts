import { describe, expect, it } from 'vitest';
import { pickVoice, SpeechReader, speechChunks, type UtteranceLike } from './speech';

/** A small local stand-in for speechSynthesis: it records utterances and ends them on demand. */
class FakeSynth {
	queue: UtteranceLike[] = [];
	spoken: string[] = [];
	paused = false;
	voices: SpeechSynthesisVoice[] = [];

	speak(u: UtteranceLike): void {
		this.queue.push(u);
		this.spoken.push(u.text);
	}
	/** Like Chromium, cancel() reports the current utterance as ended with an error. */
	cancel(): void {
		const current = this.queue.shift();
		this.queue = [];
		current?.onerror?.(new Event('error') as never);
	}
	pause(): void {
		this.paused = true;
	}
	resume(): void {
		this.paused = false;
	}
	getVoices(): SpeechSynthesisVoice[] {
		return this.voices;
	}
	/** The engine finishes the utterance it is speaking. */
	finish(): void {
		const current = this.queue.shift();
		current?.onend?.(new Event('end') as never);
	}
}

const utterance = (text: string): UtteranceLike => ({
	text,
	lang: '',
	rate: 1,
	voice: null,
	onend: null,
	onerror: null
});

const voice = (lang: string, isDefault = false): SpeechSynthesisVoice => ({
	lang,
	name: lang,
	default: isDefault,
	localService: true,
	voiceURI: lang
});

describe('what is read aloud', () => {
	it('is the title, then each paragraph of text, long ones cut at sentence ends', () => {
		const long = 'One sentence here. '.repeat(20).trim();
		const chunks = speechChunks('The title', `First  paragraph.\n\n\nSecond.\n${long}`, 100);
		expect(chunks[0]).toBe('The title');
		expect(chunks[1]).toBe('First paragraph.');
		expect(chunks[2]).toBe('Second.');
		expect(chunks.slice(3).join(' ')).toBe(long);
		expect(chunks.every((c) => c.length <= 100)).toBe(true);
	});

	it('cuts a sentence longer than an utterance at spaces', () => {
		const words = 'word '.repeat(100).trim();
		const chunks = speechChunks('', words, 50);
		expect(chunks.join(' ')).toBe(words);
		expect(chunks.every((c) => c.length <= 50)).toBe(true);
	});

	it("picks a voice for the article's language", () => {
		const voices = [voice('en-US', true), voice('ja-JP'), voice('en-GB')];
		expect(pickVoice(voices, 'en-GB')?.lang).toBe('en-GB');
		expect(pickVoice(voices, 'ja')?.lang).toBe('ja-JP');
		expect(pickVoice(voices, 'ar')).toBeUndefined();
		expect(pickVoice(voices, undefined)?.lang).toBe('en-US');
	});
});

describe('SpeechReader', () => {
	it('speaks chunks in order and is idle after the last', () => {
		const synth = new FakeSynth();
		const reader = new SpeechReader(synth, utterance);
		const states: string[] = [];
		reader.onchange = (s) => states.push(s);
		reader.start(['a', 'b'], { lang: 'en' });
		expect(synth.spoken).toEqual(['a']);
		synth.finish();
		expect(synth.spoken).toEqual(['a', 'b']);
		synth.finish();
		expect(reader.state).toBe('idle');
		expect(states).toEqual(['speaking', 'idle']);
	});

	it('pauses, resumes and stops; a stopped run never speaks on', () => {
		const synth = new FakeSynth();
		const reader = new SpeechReader(synth, utterance);
		reader.start(['a', 'b', 'c']);
		reader.pause();
		expect(reader.state).toBe('paused');
		expect(synth.paused).toBe(true);
		reader.resume();
		expect(reader.state).toBe('speaking');
		expect(synth.paused).toBe(false);
		const first = synth.queue[0];
		reader.stop();
		expect(reader.state).toBe('idle');
		// A late `end` of the cancelled utterance must not start the next chunk.
		first?.onend?.(new Event('end') as never);
		expect(synth.spoken).toEqual(['a']);
	});

	it('a new start replaces the current reading', () => {
		const synth = new FakeSynth();
		const reader = new SpeechReader(synth, utterance);
		reader.start(['old 1', 'old 2']);
		reader.start(['new 1']);
		expect(reader.state).toBe('speaking');
		synth.finish();
		expect(synth.spoken).toEqual(['old 1', 'new 1']);
		expect(reader.state).toBe('idle');
	});
});
