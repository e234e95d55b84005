import type { ParamMatcher } from '@sveltejs/kit';

/** What a headline list is of: a feed (special and label feeds too), a category, or a tag. */
export type ListKind = 'feed' | 'cat' | 'tag';

export const match = ((param: string): param is ListKind =>
	param === 'feed' || param === 'cat' || param === 'tag') satisfies ParamMatcher;
