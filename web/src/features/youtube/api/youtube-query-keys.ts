// Every YouTube query key starts with 'youtube', so one invalidation of ['youtube'] (after a sync, or a live
// sync event) refreshes the whole page.
export const YOUTUBE_QUERY_ROOT = ['youtube'] as const;
