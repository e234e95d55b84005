// The rule's list speaks the rules' words, which the first screens do not carry (src/lib/i18n).
import { loadAllMessages } from '$lib/i18n';

export const load = (): Promise<void> => loadAllMessages();
