// Alerts (decisions 015 and 018): in-app notices, the email that goes with each, and which kinds the user wants.
//
// Once per occurrence: every notice carries a key naming its occurrence, and the unique (user, key) index lets one
// insert win, whichever process, retry or repeated give-up gets there first; only the winner sends the email. The
// email's unsubscribe link is the reports' one-click mechanism with the alert's own topic (`alert:<kind>`).
import type { FastifyBaseLogger } from 'fastify';
import { BENCHMARK_AGES, type BenchmarkResponse, formatRatio } from '#contract/benchmark.ts';
import type { AlertKind, AlertSettings, AlertSettingsRequest, Notification, NotificationsResponse } from '#contract/notifications.ts';
import { PLATFORM_CATALOGUE, type PlatformName, platformDisplayName } from '#contract/platforms.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../mail/mailer.ts';
import { alertEmail } from './alert-email.ts';
import { milestoneCrossed, milestoneLabel } from './follower-milestones.ts';
import type { AlertSettingsRow, NotificationRow, NotificationsRepository } from './notifications.repository.ts';

const LIST_LIMIT = 50;
/** A post is a top post at an age when its views there are at or above this percentile of the creator's own. */
export const TOP_POST_PERCENTILE = 90;
/** A connection's first evaluation looks back this far: moments older than that are history, not news. */
const TOP_POST_FIRST_LOOKBACK_MS = 24 * 3_600_000;
/** "top 10 %" kept on one line (a no-break space). */
const TOP_TEN = 'top 10\u00a0%';
/** What a platform's posts are called in a sentence. */
const POST_NOUNS: Partial<Record<string, string>> = { youtube: 'videos', tiktok: 'videos' };
const DEFAULT_SETTINGS: AlertSettings = { reconnect: true, topPost: true, followerMilestone: true };
const KIND_LABELS: Record<AlertKind, string> = { reconnect: 'reconnect alert', topPost: 'top post alert', followerMilestone: 'follower milestone alert' };

/** The unsubscribe topic of an alert kind, shared with the reports' unsubscribe tokens. */
export const alertTopic = (kind: AlertKind) => `alert:${kind}`;

export interface NotificationsServiceDeps {
  repository: NotificationsRepository;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  /** A fresh one-click unsubscribe token for (user, topic), as its page and POST URLs (the reports feature's). */
  unsubscribeLinks: (userId: number, topic: string) => Promise<{ unsubscribePageUrl: string; oneClickUrl: string }>;
  /** Posts' age-matched benchmarks (server/modules/content/benchmark.service.ts): the top post alert's measure. */
  benchmarks: { forPosts(userId: number, targets: { contentItemIds: readonly number[] }): Promise<BenchmarkResponse[]> };
  logger: FastifyBaseLogger;
}

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    connectionId: row.connectionId,
    platform: row.platform,
    url: row.url,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

const toSettings = (row: AlertSettingsRow | undefined): AlertSettings =>
  row ? { reconnect: row.reconnect, topPost: row.topPost, followerMilestone: row.followerMilestone } : DEFAULT_SETTINGS;

export function createNotificationsService({ repository, mailer, clock, publicUrl, unsubscribeLinks, benchmarks, logger }: NotificationsServiceDeps) {
  async function list(userId: number): Promise<NotificationsResponse> {
    const [rows, unreadCount] = await Promise.all([repository.list(userId, LIST_LIMIT), repository.unreadCount(userId)]);
    return { notifications: rows.map(toNotification), unreadCount };
  }

  async function markRead(userId: number, id: number) {
    const row = await repository.markRead(userId, id, clock.now());
    if (!row) throw new AppError('not_found', 'No such notification.');
    return { notification: toNotification(row), unreadCount: await repository.unreadCount(userId) };
  }

  const alertSettings = async (userId: number) => toSettings(await repository.alertSettings(userId));

  async function updateAlertSettings(userId: number, changes: AlertSettingsRequest): Promise<AlertSettings> {
    return toSettings(await repository.saveAlertSettings(userId, changes, clock.now()));
  }

  /** The one-click unsubscribe of an alert email: turns its kind off; answers what the page says. */
  async function turnOffFromEmail(kind: AlertKind, userId: number): Promise<string> {
    await repository.saveAlertSettings(userId, { [kind]: false }, clock.now());
    return `You are unsubscribed. You will not get ${KIND_LABELS[kind]}s any more; turn them back on in Settings.`;
  }

  /**
   * A sync gave up for a reason only the user can fix (decision 011): the connection needs reconnecting, or the
   * platform refuses what we ask. One notice and one email per episode: the key holds the time the connection's
   * current tokens were issued, so the same broken connection never alerts twice, and after a reconnect (new
   * tokens) a new break is a new occurrence.
   */
  async function connectionNeedsUser({ connectionId, message }: { connectionId: number; message: string }): Promise<void> {
    const connection = await repository.connection(connectionId);
    if (!connection) return;
    if (!(await alertSettings(connection.userId)).reconnect) return;
    const episode = (connection.tokenIssuedAt ?? connection.connectedAt).getTime();
    const platformName = platformDisplayName(connection.platform);
    const handle = connection.platformUsername ? `@${connection.platformUsername}` : connection.platformUserId;
    const title = `Reconnect ${platformName} ${handle}`;
    const notice = await repository.insertOnce({
      userId: connection.userId,
      kind: 'reconnect',
      key: `reconnect:${connectionId}:${episode}`,
      title,
      body: `${message} Syncing is stopped until you reconnect.`,
      connectionId,
      platform: connection.platform,
      createdAt: clock.now(),
    });
    // Another process, a retry or an earlier give-up of this episode has alerted already.
    if (!notice) return;
    await announce(notice, {
      subject: `${platformName} needs reconnecting`,
      lines: [`Analytics Hub can no longer sync ${platformName} ${handle}.`, message, 'Your numbers stay as they are until you reconnect it.'],
      actionLabel: `Reconnect ${platformName}`,
      actionPath: '/platforms',
    });
  }

  /**
   * A connection marked for reconnection outside a sync (a YouTube on-demand read, a key rotation): the scheduler
   * skips it, so no give-up would ever tell. The scan finds those without a notice for their episode, every sync
   * cycle; the key is the give-up's, so the two never alert twice for one episode.
   */
  async function scanReconnects({ limit = 200 }: { limit?: number } = {}): Promise<number> {
    const connections = await repository.connectionsToAlertForReconnect(limit, clock.now());
    for (const connection of connections) {
      await connectionNeedsUser({ connectionId: connection.id, message: `${platformDisplayName(connection.platform)} no longer accepts this connection. Connect it again.` });
    }
    return connections.length;
  }

  /**
   * After each stored sync: the highest follower milestone (follower-milestones.ts) the connection passed since the
   * run before, if any. Once per connection and milestone, ever: falling back below it and passing it again is not
   * news. A run that passes several (180 → 1,200) announces only the highest. The first sync (`followersBefore`
   * null) passes none: the count it reads is where the history begins, not growth.
   */
  async function followersStored({ connectionId, followersBefore, followersAfter }: { connectionId: number; followersBefore: number | null; followersAfter: number }): Promise<void> {
    if (followersBefore === null) return;
    const milestone = milestoneCrossed(followersBefore, followersAfter);
    if (milestone === null) return;
    const connection = await repository.connection(connectionId);
    if (!connection) return;
    if (!(await alertSettings(connection.userId)).followerMilestone) return;
    const platformName = platformDisplayName(connection.platform);
    const handle = connection.platformUsername ? `@${connection.platformUsername}` : connection.platformUserId;
    const noun = PLATFORM_CATALOGUE[connection.platform as PlatformName]?.followerLabel ?? 'followers';
    const label = milestoneLabel(milestone);
    const notice = await repository.insertOnce({
      userId: connection.userId,
      kind: 'followerMilestone',
      key: `milestone:${connectionId}:${milestone}`,
      title: `${platformName} ${handle} passed ${label} ${noun}`,
      body: `${platformName} ${handle} now has ${followersAfter.toLocaleString('en-US')} ${noun}.`,
      connectionId,
      platform: connection.platform,
      createdAt: clock.now(),
    });
    if (!notice) return;
    await announce(notice, {
      subject: `You passed ${label} ${noun} on ${platformName}`,
      lines: [`${platformName} ${handle} now has ${followersAfter.toLocaleString('en-US')} ${noun}, past ${milestone.toLocaleString('en-US')}. Congratulations!`],
      actionLabel: 'Open your dashboard',
      actionPath: '/dashboard',
    });
  }

  /**
   * After a sync or a young-post read of a connection (decision 018): its posts whose 24-hour, 7-day or 28-day moment
   * passed since the last evaluation are benchmarked, and a post whose views there are in the creator's top 10 %
   * (percentile ≥ 90 against at least 10 of their own posts) is announced, once per post ever (not again at a later
   * age). The mark moves by compare-and-set, so each post and age is evaluated once, at most three times in a post's
   * life; the notice's unique key keeps it to one alert whatever else races. With the alert off the moments pass
   * unannounced (turning it back on does not bring up old ones).
   */
  async function postsMatured({ connectionId }: { connectionId: number }): Promise<number> {
    const connection = await repository.connection(connectionId);
    if (!connection) return 0;
    const now = clock.now();
    const mark = await repository.topPostCheckedThrough(connectionId);
    if (!(await repository.claimTopPostWindow(connectionId, mark, now))) return 0;
    if (!(await alertSettings(connection.userId)).topPost) return 0;
    const from = mark ?? new Date(now.getTime() - TOP_POST_FIRST_LOOKBACK_MS);
    const moments = await repository.postsReachingAges(connectionId, from, now, BENCHMARK_AGES.map((entry) => entry.hours));
    if (moments.length === 0) return 0;
    const answers = await benchmarks.forPosts(connection.userId, { contentItemIds: [...new Set(moments.map((moment) => moment.id))] });
    const byPost = new Map(answers.map((answer) => [answer.contentItemId, answer]));
    let alerted = 0;
    const announced = new Set<number>();
    // Youngest age first: a post crossing at 24 hours is announced then, not again at 7 days.
    for (const moment of moments) {
      if (announced.has(moment.id)) continue;
      const age = byPost.get(moment.id)?.ages.find((entry) => entry.hours === moment.hours);
      const views = age?.views;
      if (!age || !views || views.status !== 'ok' || views.percentile === null || views.percentile < TOP_POST_PERCENTILE) continue;
      announced.add(moment.id);
      // The post's address comes from the platform: only a web address becomes a link (never javascript: or data:).
      const postUrl = moment.url && /^https?:\/\//i.test(moment.url) ? moment.url : null;
      const label = BENCHMARK_AGES.find((entry) => entry.hours === moment.hours)!.label;
      const platformName = platformDisplayName(connection.platform);
      const typical = views.ratio === null ? `above your typical of 0 (n = ${views.n})` : `${formatRatio(views.ratio)} your typical (n = ${views.n})`;
      const sentence = `“${moment.title}” is in your ${TOP_TEN} of ${platformName} ${POST_NOUNS[connection.platform] ?? 'posts'} at ${label}: ${typical}`;
      const notice = await repository.insertOnce({
        userId: connection.userId,
        kind: 'topPost',
        key: `top-post:${moment.id}`,
        title: `“${moment.title}” is in your ${TOP_TEN}`,
        body: `${sentence}.`,
        connectionId,
        platform: connection.platform,
        url: postUrl,
        createdAt: now,
      });
      if (!notice) continue;
      alerted += 1;
      await announce(notice, {
        subject: `“${moment.title}” is in your ${TOP_TEN} at ${label}`,
        lines: [`${sentence}.`, `${(views.value ?? 0).toLocaleString('en-US', { maximumFractionDigits: 0 })} views at ${label}, against a typical ${(views.median ?? 0).toLocaleString('en-US', { maximumFractionDigits: 0 })}.`],
        actionLabel: postUrl ? `Open it on ${platformName}` : 'Open your analytics',
        actionUrl: postUrl ?? `${publicUrl}/analytics`,
      });
    }
    return alerted;
  }

  /** The email that goes with a notice just created; a failed send is logged and not retried (the notice stands). */
  async function announce(notice: NotificationRow, email: { subject: string; lines: string[]; actionLabel: string } & ({ actionPath: string } | { actionUrl: string })) {
    logger.info({ event: 'alert.created', kind: notice.kind, userId: notice.userId, connectionId: notice.connectionId, notificationId: notice.id }, 'alert created');
    try {
      const recipient = await repository.recipient(notice.userId);
      if (!recipient) return;
      const links = await unsubscribeLinks(notice.userId, alertTopic(notice.kind));
      await mailer.send(
        alertEmail(
          { to: recipient.email, name: recipient.firstName || null, subject: email.subject, lines: email.lines, actionLabel: email.actionLabel, kindLabel: KIND_LABELS[notice.kind] },
          { actionUrl: 'actionUrl' in email ? email.actionUrl : `${publicUrl}${email.actionPath}`, settingsUrl: `${publicUrl}/settings`, ...links },
        ),
      );
    } catch (error) {
      logger.error({ event: 'alert.email_failed', kind: notice.kind, notificationId: notice.id, err: error }, 'alert email could not be sent');
    }
  }

  return { list, markRead, alertSettings, updateAlertSettings, turnOffFromEmail, connectionNeedsUser, scanReconnects, followersStored, postsMatured };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
