// Unit and contract tests speak English, the source (vite.config.ts setupFiles).
import { messages } from './generated/en';
import { useCatalog } from './m';

useCatalog(messages);
