// The text of a connected account's row, as pure functions so the rules are tested on their own.
import { formatDate } from '../../../lib/format';
import type { PlatformConnection } from '../../../lib/platform-connections';

const relativeFormatter = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'Last synced 5 minutes ago' within a week, 'Last synced Nov 22, 2026' before that, 'Not synced yet' never. */
export function lastSyncedText(lastSyncedAt: string | null, now: Date = new Date()): string {
  if (!lastSyncedAt) return 'Not synced yet';
  const time = new Date(lastSyncedAt).getTime();
  if (Number.isNaN(time)) return 'Not synced yet';
  // A server clock slightly ahead of the browser's would otherwise read 'in 1 minute'.
  const elapsed = Math.max(0, now.getTime() - time);
  if (elapsed < MINUTE) return 'Last synced just now';
  if (elapsed < HOUR) return `Last synced ${relativeFormatter.format(-Math.floor(elapsed / MINUTE), 'minute')}`;
  if (elapsed < DAY) return `Last synced ${relativeFormatter.format(-Math.floor(elapsed / HOUR), 'hour')}`;
  if (elapsed < 7 * DAY) return `Last synced ${relativeFormatter.format(-Math.floor(elapsed / DAY), 'day')}`;
  return `Last synced ${formatDate(lastSyncedAt)}`;
}

/** A platform card reads 'Connected' while any of its accounts is connected. */
export function isPlatformConnected(platformId: number, connections: readonly PlatformConnection[]): boolean {
  return connections.some((connection) => connection.platformId === platformId && connection.isActive);
}
