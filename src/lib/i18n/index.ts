export {
	chooseLocale,
	chosenLocale,
	directionOf,
	loadAllMessages,
	locale,
	LOCALES,
	pickLocale,
	SOURCE_LOCALE,
	startLocale,
	useMessages,
	type Locale,
	type Messages
} from './locale.svelte';
export { m } from './m';
