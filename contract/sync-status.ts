// The one list of states a connection's sync can be in, used by every call and event that reports it.
import { z } from 'zod';

/** idle: nothing pending; queued: waiting (now, or a retry or Retry-After later); running: a worker holds it; failed: it gave up. */
export const syncStatus = z.enum(['idle', 'queued', 'running', 'failed']);
export type SyncStatus = z.infer<typeof syncStatus>;

/** A stored status as one of the states; anything unknown reads as idle. */
export const toSyncStatus = (value: string | null | undefined): SyncStatus => syncStatus.safeParse(value).data ?? 'idle';
