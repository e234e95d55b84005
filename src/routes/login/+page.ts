// The sign-in page shows the server check-up's findings: its words are not in the start module.
import { loadAllMessages } from '$lib/i18n';

export const load = (): Promise<void> => loadAllMessages();
