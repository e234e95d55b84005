// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { claimsSideways, followOffset, stepOf } from './page-swipe';
import { isHorizontal, SwipePress, type Side } from './swipe-press';

describe('stepOf', () => {
	it('takes a swipe toward the start of the reading to the next article', () => {
		expect(stepOf('left', 'ltr')).toBe('next');
		expect(stepOf('right', 'ltr')).toBe('previous');
	});

	it('mirrors in a right-to-left language', () => {
		expect(stepOf('right', 'rtl')).toBe('next');
		expect(stepOf('left', 'rtl')).toBe('previous');
	});
});

describe('followOffset', () => {
	it('follows the finger, not at all with reduced motion', () => {
		expect(followOffset(-40, false)).toBe(-40);
		expect(followOffset(-40, true)).toBe(0);
	});
});

describe('an article swipe (SwipePress without a long press)', () => {
	function article(has: Partial<Record<'next' | 'previous', boolean>>, direction: 'ltr' | 'rtl') {
		const went: string[] = [];
		const m = new SwipePress({
			threshold: 80,
			canSwipe: (side: Side) => has[stepOf(side, direction)] === true,
			onSwipe: (side: Side) => went.push(stepOf(side, direction))
		});
		return { m, went };
	}

	it('goes to the next article on a swipe to the left, past the threshold', () => {
		const { m, went } = article({ next: true, previous: true }, 'ltr');
		m.down(300, 400, 1, false);
		m.move(250, 405, 1);
		m.move(200, 408, 1);
		expect(m.up(1)).toBe('left');
		expect(went).toEqual(['next']);
	});

	it('does not move or act toward a side without an article (the last one)', () => {
		const { m, went } = article({ previous: true }, 'ltr');
		m.down(300, 400, 1, false);
		m.move(150, 400, 1);
		expect(m.current.dx).toBe(0);
		expect(m.up(1)).toBeUndefined();
		expect(went).toEqual([]);
	});

	it('in right-to-left, a swipe to the right is the next article', () => {
		const { m, went } = article({ next: true }, 'rtl');
		m.down(100, 400, 1, false);
		m.move(200, 400, 1);
		m.up(1);
		expect(went).toEqual(['next']);
	});

	it('a mostly vertical move is the page scrolling, not a swipe', () => {
		const { m, went } = article({ next: true, previous: true }, 'ltr');
		m.down(300, 400, 1, false);
		expect(m.move(200, 250, 1)).toBe(false);
		expect(m.up(1)).toBeUndefined();
		expect(went).toEqual([]);
		expect(isHorizontal(-100, -150)).toBe(false);
		expect(isHorizontal(-100, -20)).toBe(true);
	});
});

describe('claimsSideways', () => {
	it('leaves a swipe on controls and sideways-scrolling boxes to them', () => {
		document.body.innerHTML = `<article id="root"><p id="text">words</p>
			<input id="seek" type="range"><div><video id="video"></video></div>
			<pre id="code" style="overflow-x:auto"><span id="inside">code</span></pre></article>`;
		const root = document.getElementById('root') as HTMLElement;
		const code = document.getElementById('code') as HTMLElement;
		// jsdom has no layout: the code block says it is wider than its box.
		Object.defineProperty(code, 'scrollWidth', { value: 900 });
		Object.defineProperty(code, 'clientWidth', { value: 300 });
		const at = (id: string) => document.getElementById(id);
		expect(claimsSideways(at('text'), root)).toBe(false);
		expect(claimsSideways(at('seek'), root)).toBe(true);
		expect(claimsSideways(at('video'), root)).toBe(true);
		expect(claimsSideways(at('inside'), root)).toBe(true);
		expect(claimsSideways(null, root)).toBe(false);
		expect(claimsSideways(document.body, root)).toBe(false);
	});
});
