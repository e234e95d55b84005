/**
 * The labels a picker offers, read from the server: for one article with its checked state, or
 * every label (for a selection of several). Screens read through the state layer, never the API
 * client itself (docs/architecture.md).
 */
import type { LabelWithState } from '$lib/api';
import { session } from './session.svelte';

export function labelsFor(articleId?: number): Promise<LabelWithState[]> {
	return session.api().then((client) => client.getLabels(articleId));
}
