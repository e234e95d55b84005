// A single-page app: the server (tt-rss's web server, or any static host) only serves files,
// and every page is rendered in the browser from state and IndexedDB.
export const ssr = false;
export const prerender = false;
