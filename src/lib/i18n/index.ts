export {
	chooseLocale,
	chosenLocale,
	directionOf,
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
