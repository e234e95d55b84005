/**
 * The check-up page's look at the signed-in account (checkup/checkup.ts over this session's
 * client): screens ask the state layer, never the API client (docs/architecture.md).
 */
import { checkAccount, type Finding } from '$lib/checkup/checkup';
import { m } from '$lib/i18n/m';
import { session } from './session.svelte';

/**
 * The account's findings: its API level, the update daemon, feeds in error; led by "signed in"
 * unless the account itself failed (then the failure's finding says why instead).
 */
export async function checkSignedInAccount(origin: string): Promise<Finding[]> {
	const found = await checkAccount(await session.api(), { apiUrl: session.apiUrl, origin });
	if (!found.some((f) => f.id === 'api-level')) return found;
	const account: Finding = {
		id: 'signed-in',
		verdict: 'ok',
		title: m.checkup_signed_in_title({ user: session.user ?? 'admin' }),
		detail: m.checkup_signed_in_detail({ server: session.server })
	};
	return [account, ...found];
}
