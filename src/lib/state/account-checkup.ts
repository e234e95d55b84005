/**
 * The check-up page's look at the signed-in account (checkup/checkup.ts over this session's
 * client): screens ask the state layer, never the API client (docs/architecture.md).
 */
import { checkAccount, type Finding } from '$lib/checkup/checkup';
import { m } from '$lib/i18n/m';
import { APP_VERSION } from '$lib/pwa/build-info';
import { findPlugin, versionAdvice, type VersionAdvice } from '$lib/pwa/plugin-version';
import { session } from './session.svelte';

/**
 * The account's findings: its API level, the update daemon, feeds in error; led by "signed in"
 * unless the account itself failed (then the failure's finding says why instead).
 */
export async function checkSignedInAccount(origin: string): Promise<Finding[]> {
	const found = await checkAccount(await session.api(), { apiUrl: session.apiUrl, origin });
	if (!found.some((f) => f.id === 'api-level')) return found;
	const versions = await pluginVersionAdvice().catch(() => undefined);
	if (versions) found.push(versionsFinding(versions));
	const account: Finding = {
		id: 'signed-in',
		verdict: 'ok',
		title: m.checkup_signed_in_title({ user: session.user ?? 'admin' }),
		detail: m.checkup_signed_in_detail({ server: session.server })
	};
	return [account, ...found];
}

/**
 * What to update when this app and the server's Reader plugin are different releases (pwa/
 * plugin-version.ts); undefined when they meet, or without the plugin.
 */
export async function pluginVersionAdvice(): Promise<VersionAdvice | undefined> {
	return versionAdvice(APP_VERSION, await findPlugin(await session.api()));
}

/** The advice in words: what differs, and what to update. */
export function versionsFinding(advice: VersionAdvice): Finding {
	const { app, plugin } = advice;
	return {
		id: 'versions',
		verdict: 'notice',
		title:
			advice.update === 'plugin'
				? m.checkup_versions_plugin_title()
				: m.checkup_versions_app_title(),
		detail:
			plugin === undefined
				? m.checkup_versions_detail_old({ app })
				: m.checkup_versions_detail({ app, plugin }),
		fix:
			advice.update === 'plugin'
				? m.checkup_versions_plugin_fix({ app })
				: m.checkup_versions_app_fix()
	};
}
