/**
 * The tt-rss API module: the only code in the app that talks to the server.
 * See docs/api.md for the ops, the API levels they need and the error kinds.
 */
// The client class itself is imported from './client' (a value export here would put it, with its
// parsers, on the first screen: state/session.svelte.ts loads it on demand).
export {
	type TtrssClient,
	type Credentials,
	type CredentialsProvider,
	type HeadlinePage,
	type LoadFeedTreeOptions,
	type OpOptions,
	type PageHeadlinesOptions,
	type TtrssClientOptions
} from './client';
export {
	ApiError,
	isApiError,
	noWayToServer,
	readerText,
	ReaderError,
	browserApiSetting,
	RefusedError,
	serverUnreachable,
	type ApiErrorCode,
	type ApiErrorKind,
	type ClientErrorCode,
	type ServerErrorCode
} from './errors';
export { feedIconUrl } from './icons';
export {
	deriveCapabilities,
	isLabelFeedId,
	labelIdFromWire,
	labelIdToWire,
	type Capabilities
} from './capabilities';
export {
	ArticleField,
	UpdateMode,
	type CatchupFeedParams,
	type CatchupMode,
	type FeedId,
	type GetArticleParams,
	type GetCategoriesParams,
	type GetCountersParams,
	type GetFeedTreeParams,
	type GetFeedsParams,
	type GetHeadlinesParams,
	type GetUnreadParams,
	type MatchOn,
	type OrderBy,
	type SearchMode,
	type SetArticleLabelParams,
	type ShareToPublishedParams,
	type SubscribeToFeedParams,
	type UpdateArticleParams,
	type ViewMode
} from './params';
export { DEVICE_FEED, isDeviceFeed, SPECIAL_FEED } from './feed-ids';
export { viewModeKeeps, type ViewModeContext, type ViewModeRow } from './view-mode';
export { DEFAULT_TIMEOUT_MS, type BinaryReply, type FetchLike } from './transport';
export { LABELS_CATEGORY, SPECIAL_CATEGORY } from './tree';
export type * from './types';
