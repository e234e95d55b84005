/**
 * Test helper (used only by *.spec.ts): a stored session as a sign-in to the test bed leaves it
 * (API level 15, the level of the recorded replies in tests/fixtures/recorded), with the fields
 * a test is about given as overrides.
 */
import type { StoredSession } from './schema';

export function storedSession(overrides: Partial<StoredSession> = {}): StoredSession {
	return {
		apiUrl: 'http://tt.example/api/',
		user: 'reader',
		sessionId: 'sid-reader',
		apiLevel: 15,
		stayingSignedIn: false,
		singleUser: false,
		signedInAt: 1,
		...overrides
	};
}
