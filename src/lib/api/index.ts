/**
 * The tt-rss API module: the only code in the app that talks to the server.
 * See docs/api.md for the ops, the API levels they need and the error kinds.
 */
// The client class itself is imported from './client' (a value export here would put it, with its
// parsers, on the first screen: state/session.svelte.ts loads it on demand). Likewise the values
// below come from small modules (codes.ts, feed-ids.ts), not from the request code.
export type {
	TtrssClient,
	Credentials,
	CredentialsProvider,
	LoadFeedTreeOptions,
	OpOptions,
	TtrssClientOptions
} from './client';
export type { HeadlinePage, PageHeadlinesOptions } from './paging';
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
export { feedIconUrl } from './feed-icons';
export {
	deriveCapabilities,
	isLabelFeedId,
	labelIdFromWire,
	labelIdToWire,
	type Capabilities
} from './capabilities';
export { ArticleField, DEFAULT_TIMEOUT_MS, UpdateMode } from './codes';
export type {
	CatchupFeedParams,
	CatchupMode,
	FeedId,
	GetArticleParams,
	GetCategoriesParams,
	GetCountersParams,
	GetFeedTreeParams,
	GetFeedsParams,
	GetHeadlinesParams,
	GetUnreadParams,
	MatchOn,
	OrderBy,
	SearchMode,
	SetArticleLabelParams,
	ShareToPublishedParams,
	SubscribeToFeedParams,
	UpdateArticleParams,
	ViewMode
} from './params';
export {
	DEVICE_FEED,
	isDeviceFeed,
	LABELS_CATEGORY,
	SPECIAL_CATEGORY,
	SPECIAL_FEED
} from './feed-ids';
export { viewModeKeeps, type ViewModeContext, type ViewModeRow } from './view-mode';
export type { BinaryReply, FetchLike } from './transport';
export type * from './types';
export { headlineOnlyDefaults } from './types';
