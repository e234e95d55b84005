export {
	chooseLocale,
	chosenLocale,
	directionOf,
	followLocale,
	LANGUAGE_CHOICES,
	formatLocaleOf,
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
export { formatLocale, m } from './m';
