import { describe, expect, it } from 'vitest';
import { compareVersions, pluginInRows, versionAdvice } from './plugin-version';

describe('app and plugin versions', () => {
	it('reads the plugin from the rows it saw', () => {
		expect(pluginInRows([{ id: 1, reader_images: {}, reader_version: '1.0.0' }])).toEqual({
			kind: 'version',
			version: '1.0.0'
		});
		// A plugin before 1.0 signs images but names no version.
		expect(pluginInRows([{ id: 1, reader_images: [] }])).toEqual({ kind: 'before-versions' });
		expect(pluginInRows([{ id: 1, content: 'x' }])).toEqual({ kind: 'none' });
		expect(pluginInRows([])).toEqual({ kind: 'unknown' });
		expect(pluginInRows('bad')).toEqual({ kind: 'unknown' });
	});

	it('orders releases, pre-releases before theirs, build metadata aside', () => {
		expect(compareVersions('1.0.0', '0.9.9')).toBe(1);
		expect(compareVersions('1.0.0-rc.2', '1.0.0')).toBe(-1);
		expect(compareVersions('1.0.0-e2e.10', '1.0.0-e2e.9')).toBe(1);
		expect(compareVersions('1.0.0+abc', '1.0.0')).toBe(0);
		expect(compareVersions('@VERSION@', '1.0.0')).toBeUndefined();
	});

	it('says which to update, and nothing when they meet or one is no version', () => {
		expect(versionAdvice('1.1.0', { kind: 'version', version: '1.0.0' })).toEqual({
			update: 'plugin',
			app: '1.1.0',
			plugin: '1.0.0'
		});
		expect(versionAdvice('1.0.0', { kind: 'version', version: '1.2.0' })).toMatchObject({
			update: 'app'
		});
		expect(versionAdvice('1.0.0', { kind: 'before-versions' })).toEqual({
			update: 'plugin',
			app: '1.0.0',
			plugin: undefined
		});
		expect(versionAdvice('1.0.0', { kind: 'version', version: '1.0.0' })).toBeUndefined();
		expect(versionAdvice('1.0.0', { kind: 'version', version: '@VERSION@' })).toBeUndefined();
		expect(versionAdvice('1.0.0', { kind: 'none' })).toBeUndefined();
	});
});
