import { describe, expect, it, vi } from 'vitest';
import { lazyModule } from './lazy';

const fakeModule = () => ({
	double: (n: number) => n * 2,
	later: (text: string) => Promise.resolve(`${text}!`),
	VALUE: 3
});

describe('lazyModule', () => {
	it('imports nothing until the first use, then once for every use', async () => {
		const importer = vi.fn(() => Promise.resolve(fakeModule()));
		const lazy = lazyModule(importer);
		const double = lazy.soon('double');
		expect(importer).not.toHaveBeenCalled();
		expect(await double(4)).toBe(8);
		expect(await lazy.soon('later')('hi')).toBe('hi!');
		expect((await lazy.load()).VALUE).toBe(3);
		expect(importer).toHaveBeenCalledTimes(1);
	});

	it('hands every caller at once the one import', async () => {
		const importer = vi.fn(() => Promise.resolve(fakeModule()));
		const lazy = lazyModule(importer);
		const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
		expect(a).toBe(b);
		expect(importer).toHaveBeenCalledTimes(1);
	});

	it('tries again after a failed import, and the failure reaches the caller', async () => {
		const lost = new Error('chunk lost');
		const importer = vi
			.fn<() => Promise<ReturnType<typeof fakeModule>>>()
			.mockRejectedValueOnce(lost)
			.mockResolvedValue(fakeModule());
		const double = lazyModule(importer).soon('double');
		await expect(double(1)).rejects.toBe(lost);
		expect(await double(2)).toBe(4);
		expect(importer).toHaveBeenCalledTimes(2);
	});

	it('passes on what the function throws', async () => {
		const broken = lazyModule(() =>
			Promise.resolve({
				fail: (why: string): never => {
					throw new Error(why);
				}
			})
		);
		await expect(broken.soon('fail')('no')).rejects.toThrow('no');
	});
});
