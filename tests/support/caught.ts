import { expect } from 'vitest';
import { ApiError } from '$lib/api/errors';

/** The ApiError a call rejected with; fails the test when it resolved or threw anything else. */
export async function caught(promise: Promise<unknown>): Promise<ApiError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(ApiError);
		return error as ApiError;
	}
	throw new Error('expected an ApiError');
}
