import { describe, expect, it } from 'vitest';
import { emitAccountEvent, onAccountEvent, type AccountEvent } from './account-events';

describe('account events', () => {
	it('reach every listener until it stops listening, and wait for the slow ones', async () => {
		const heard: AccountEvent[] = [];
		let slowDone = false;
		const stop = onAccountEvent((event) => void heard.push(event));
		const stopSlow = onAccountEvent(async () => {
			await Promise.resolve();
			slowDone = true;
		});
		await emitAccountEvent({ type: 'account-changed', account: 'b@x' });
		expect(slowDone).toBe(true);
		stop();
		stopSlow();
		await emitAccountEvent({ type: 'signed-out' });
		expect(heard).toEqual([{ type: 'account-changed', account: 'b@x' }]);
	});

	it('one listener failing does not keep the others from forgetting; its error comes out', async () => {
		let later = false;
		const stopFailing = onAccountEvent(() => {
			throw new Error('broken');
		});
		const stopLater = onAccountEvent(() => {
			later = true;
		});
		await expect(emitAccountEvent({ type: 'signed-out' })).rejects.toThrow('broken');
		expect(later).toBe(true);
		stopFailing();
		stopLater();
	});
});
