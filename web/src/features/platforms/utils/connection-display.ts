// The text of a connected account's row, as pure functions so the rules are tested on their own.
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import { formatDate, getDisplayTimeZone } from '../../../lib/format';
import { accountHandle, type PlatformConnection, TRACKED_YOUTUBE_HISTORY_NOTE, tracksPublicYouTubeChannel } from '../../../lib/platform-connections';

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
/** The names of the platform's active accounts, as the Connected Accounts list shows them; empty when none is connected. */
export function connectedAccountNames(platformId: number, connections: readonly PlatformConnection[]): string[] {
  return connections.filter((connection) => connection.platformId === platformId && connection.isActive).map(accountName);
}

/** "Maya Lopez (@maya)", or the handle alone when the account has no other name. */
export function accountName(connection: PlatformConnection): string {
  const handle = accountHandle(connection);
  const name = connection.displayName?.trim();
  return name && name !== handle ? `${name} (${handle})` : handle;
}

/** '14:02' on the day of `now`, 'Nov 3, 14:02' on another day (24-hour clock, as the report schedule shows it), in the account's time zone unless told. */
export function formatTimeOfDay(value: string, now: Date, timeZone: string | undefined = getDisplayTimeZone()): string {
  const date = new Date(value);
  const day = (moment: Date) => new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).format(moment);
  const sameDay = day(date) === day(now);
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    ...(sameDay ? {} : { month: 'short', day: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

/** The server's reason as a sentence: trimmed, ending with a full stop. */
function sentence(text: string | null): string {
  const trimmed = text?.trim() ?? '';
  if (!trimmed) return '';
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * What a connected account's row says about a sync in trouble, from GET /api/sync/status: a sync that stopped until
 * the user acts ('Stopped: <why> Press Sync to try again.'; reconnecting is what a refused connection needs, and its
 * row offers it), a platform whose refreshes pause ('X figures pause until Jan 1 while we stay within our X budget.'),
 * or one that failed and retries after its backoff ('Last failed 14:02: <why> Next try at 16:02.').
 * Null when nothing is wrong.
 */
export function syncTroubleText(
  status: ConnectionSyncStatus | undefined,
  connection: Pick<PlatformConnection, 'syncStatus' | 'needsReconnect'>,
  now: Date = new Date(),
  timeZone?: string,
): string | null {
  if (!status) return connection.syncStatus === 'failed' ? 'Sync stopped. Press Sync to try again.' : null;
  // A sync stopped until the creator acts says what to do in its own note, with its Retry (ConnectedAccountRow).
  if (status.action && !connection.needsReconnect) return status.pause ? status.pause.message : null;
  // The row names the platform already: 'TikTok: The platform could not answer' reads 'The platform could not answer'.
  const prefix = `${status.platformName}: `;
  const message = status.message?.startsWith(prefix) ? status.message.slice(prefix.length) : status.message;
  const why = sentence(message);
  if (status.status === 'failed') {
    const stopped = why ? `Stopped: ${why}` : 'Sync stopped.';
    const stoppedText = connection.needsReconnect ? stopped : `${stopped} Press Sync to try again.`;
    return status.pause ? `${stoppedText} ${status.pause.message}` : stoppedText;
  }
  // The platform's refreshes pause for everyone (the operator's budget): the reason in words, nothing to press.
  if (status.pause) return status.pause.message;
  if (status.attempts === 0 || !status.lastFailedAt) return partialText(status, now, timeZone);
  const failed = `Last failed ${formatTimeOfDay(status.lastFailedAt, now, timeZone)}${why ? `: ${why}` : '.'}`;
  if (status.status === 'running') return `${failed} Trying again now.`;
  if (status.status === 'queued' && status.nextRunAt) return `${failed} Next try at ${formatTimeOfDay(status.nextRunAt, now, timeZone)}.`;
  return failed;
}

/**
 * A sync stored without some of its parts: 'Partial: the posts list is missing, retrying at 14:05. The platform could
 * not answer (HTTP 503).' (each missing part reads '<what>: <why>'; the first is named, the others counted). Null
 * when nothing is missing.
 */
export function partialText(status: Pick<ConnectionSyncStatus, 'state' | 'missingParts' | 'nextRunAt'>, now: Date = new Date(), timeZone?: string): string | null {
  const [first, ...others] = status.missingParts;
  if (status.state !== 'partial' || first === undefined) return null;
  const split = first.indexOf(': ');
  const what = split < 0 ? first : first.slice(0, split);
  const why = split < 0 ? '' : sentence(first.slice(split + 2));
  const missing = others.length === 0 ? `${what} is missing` : `${what} and ${others.length} more ${others.length === 1 ? 'part are' : 'parts are'} missing`;
  const retry = status.nextRunAt ? `, retrying at ${formatTimeOfDay(status.nextRunAt, now, timeZone)}` : '';
  return `Partial: ${missing}${retry}.${why ? ` ${why}` : ''}`;
}

/**
 * On a connection whose grant stopped working: until when it can be reconnected before its stored data is deleted
 * (the server's `dataDeletedOn`, 30 days after the platform refused it; docs/platforms/data-retention.md).
 */
export function reconnectDeadlineText(connection: Pick<PlatformConnection, 'needsReconnect' | 'dataDeletedOn' | 'platformName'>): string | null {
  if (!connection.needsReconnect || !connection.dataDeletedOn) return null;
  return `Reconnect by ${formatDate(connection.dataDeletedOn)}: ${connection.platformName} no longer lets us read this account, so on that day we delete what we stored for it.`;
}

/** On a tracked public YouTube channel: how much of its history is kept. */
export function trackedHistoryText(connection: Pick<PlatformConnection, 'manual' | 'platform'>): string | null {
  return tracksPublicYouTubeChannel([connection]) ? `Subscriber history: ${TRACKED_YOUTUBE_HISTORY_NOTE}` : null;
}
