// The article screen's words are in the later module (scripts/i18n-compile.js): a start on an
// article waits for it here; opened from a list, it is in already (asked once the list is painted).
import { loadAllMessages } from '$lib/i18n';

export const load = (): Promise<void> => loadAllMessages();
