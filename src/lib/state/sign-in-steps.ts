/**
 * A sign-in's steps with the server: log in, learn what the server can do, and make the session
 * record this device keeps. Only the sign-in form and the sign-in in place run them
 * (`session.signIn`, `session.renew`), so they load with a sign-in, not with the first screen,
 * which starts from the kept session.
 */
import type { Credentials } from '$lib/api';
import { TtrssClient } from '$lib/api/client';
import type { StoredSession } from '$lib/db/schema';
import { newSignInId } from '$lib/db/session';

export { apiUrlFor } from './server-address';

/** Logs in as `wanted`: the session to keep (the password only with "stay signed in") and its client. */
export async function logIn(
	wanted: Pick<StoredSession, 'apiUrl' | 'user' | 'stayingSignedIn' | 'singleUser'> & {
		password: string;
	}
): Promise<{ stored: StoredSession; client: TtrssClient }> {
	const credentials: Credentials = wanted.singleUser
		? {}
		: { user: wanted.user, password: wanted.password };
	const client = new TtrssClient({ apiUrl: wanted.apiUrl });
	const login = await client.login(credentials);
	const caps = await client.detectCapabilities();
	const stored: StoredSession = {
		apiUrl: wanted.apiUrl,
		user: wanted.user,
		sessionId: login.sessionId,
		apiLevel: caps.apiLevel,
		stayingSignedIn: wanted.stayingSignedIn,
		singleUser: wanted.singleUser,
		signedInAt: Date.now(),
		signInId: newSignInId(),
		...(caps.version !== undefined ? { version: caps.version } : {}),
		...(wanted.stayingSignedIn && !wanted.singleUser ? { password: wanted.password } : {})
	};
	return { stored, client };
}
