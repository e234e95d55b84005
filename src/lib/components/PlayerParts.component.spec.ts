/**
 * The enclosure player's parts (PlayerBar, PlayerSpeed) in jsdom: what they show and what they ask
 * of their owner. Where the player resumes and what it keeps is media/playback.spec.ts's.
 */
import { flushSync } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import PlayerBar from './PlayerBar.svelte';
import PlayerSpeed from './PlayerSpeed.svelte';
import { freshTarget, hide, show } from '$support/mounted';

let target: HTMLElement;
beforeEach(() => {
	target = freshTarget();
});

describe('PlayerBar', () => {
	it('says Play while paused, Pause while playing, and asks its owner to switch', async () => {
		const ontoggle = vi.fn();
		show(PlayerBar, target, { paused: true, currentTime: 0, duration: Number.NaN, ontoggle });
		const button = (): HTMLButtonElement => target.querySelector('button')!;
		expect(button().textContent).toBe('▶ Play');
		button().click();
		expect(ontoggle).toHaveBeenCalledOnce();
		await hide();
		show(PlayerBar, target, { paused: false, currentTime: 0, duration: 60, ontoggle });
		expect(button().textContent).toBe('⏸ Pause');
	});

	it('shows the position on its clock and slider, 0:00 of a duration not known yet', () => {
		show(PlayerBar, target, { paused: true, currentTime: 75, duration: 3600, ontoggle: vi.fn() });
		const slider = target.querySelector<HTMLInputElement>('input[type="range"]')!;
		expect(target.querySelector('.time')?.textContent).toBe('1:15 / 1:00:00');
		expect(slider.max).toBe('3600');
		expect(slider.getAttribute('aria-valuetext')).toBe('1:15 of 1:00:00');
	});
});

describe('PlayerSpeed', () => {
	it('offers the usual speeds with the reader’s own, and says the one chosen as a number', () => {
		const onchange = vi.fn<(rate: number) => void>();
		show(PlayerSpeed, target, { rate: 3, onchange });
		const select = target.querySelector('select')!;
		expect([...select.options].map((o) => o.textContent)).toEqual([
			'0.75×',
			'1×',
			'1.25×',
			'1.5×',
			'1.75×',
			'2×',
			'2.5×',
			'3×'
		]);
		expect(target.querySelector('label')?.htmlFor).toBe(select.id);
		select.value = '1.5';
		select.dispatchEvent(new Event('change', { bubbles: true }));
		flushSync();
		expect(onchange).toHaveBeenCalledWith(1.5);
	});
});
