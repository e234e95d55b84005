import { describe, expect, it, vi } from 'vitest';
import { canRegisterFeedLinks, registerFeedLinks } from './feed-links';

describe('feed links (registerProtocolHandler)', () => {
	it('offers itself only where the browser has it', () => {
		expect(canRegisterFeedLinks(undefined)).toBe(false);
		expect(canRegisterFeedLinks({})).toBe(false);
		expect(canRegisterFeedLinks({ registerProtocolHandler: () => undefined })).toBe(true);
	});

	it('names the subscribe screen by the folder and a query, under any folder', () => {
		const registerProtocolHandler = vi.fn();
		expect(
			registerFeedLinks(
				{ registerProtocolHandler },
				'https://rss.example',
				'/tt-rss/plugins.local/reader'
			)
		).toBe(true);
		expect(registerProtocolHandler).toHaveBeenCalledWith(
			'web+feed',
			'https://rss.example/tt-rss/plugins.local/reader/?to=/subscribe&url=%s'
		);
	});

	it('says so when the browser refuses', () => {
		const registerProtocolHandler = vi.fn(() => {
			throw new DOMException('refused', 'SecurityError');
		});
		expect(registerFeedLinks({ registerProtocolHandler }, 'https://rss.example', '')).toBe(false);
	});
});
