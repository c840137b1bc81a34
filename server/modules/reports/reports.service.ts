// Emailed reports: the user's preferences, the scan that sends every report whose local time has come (run each
// minute by the job queue, or directly by tests on a manual clock), and the one-click unsubscribe.
//
// Exactly once per user and period: a report is claimed in report_deliveries (unique user + period key) before its
// email is sent, so a second worker, a restart or an overlapping scan finds the claim and sends nothing. A send that
// fails (the SMTP server refused or was unreachable) is marked failed and retried with backoff by a later scan; a
// send interrupted by a crash stays `sending` and is not repeated, because the email may already have left.
import type { FastifyBaseLogger } from 'fastify';
import { platformDisplayName } from '#contract/platforms.ts';
import type { ReportPreferences, ReportPreferencesRequest } from '#contract/reports.ts';
import { canonicalTimeZone } from '#contract/time-zones.ts';
import { comparisonNote as comparisonSentence } from '#contract/comparison-note.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/secure-random.ts';
import type { AnalyticsRepository } from '../analytics/analytics.repository.ts';
import { engagementRate } from '../../lib/engagement-rate.ts';
import type { Mailer } from '../mail/mailer.ts';
import { addDays } from '../../lib/dates.ts';
import { dateLabel, type KeyNumbers, type ReportData, reportEmail } from './report-email.ts';
import { latestReportAt, nextReportAt, periodOfKey, type ReportPeriod, reportPeriod, zonedTime } from './report-schedule.ts';
import type { ReportPreferencesRow, ReportPreferencesValues, ReportsRepository } from './reports.repository.ts';

const HOUR = 3_600_000;
/** A report whose time passed longer ago than this (the servers were down) is skipped, not sent late. */
const STALE_AFTER_MS = 6 * HOUR;
/** Attempts in all for one report; the waits between them double from RETRY_BASE_MS. */
export const MAX_ATTEMPTS = 4;
const RETRY_BASE_MS = 10 * 60_000;
const UNSUBSCRIBE_TOKEN_TTL_MS = 365 * 24 * HOUR;
const TOP_CONTENT = 5;
const INSIGHTS = 4;
const DEFAULTS = { frequency: 'off', weekday: 1, hour: 8, timeZone: 'UTC' } as const;

/** The row as stored: the zone is the account's, not a column of the preferences. */
const withoutZone = ({ timeZone: _zone, ...stored }: ReportPreferencesRow): ReportPreferencesValues => stored;

/** The PDF attached to each report; supplied by the exports module. */
export type ReportAttachment = (input: { userId: number; period: ReportPeriod }) => Promise<{ filename: string; content: Buffer; contentType: string }>;

export interface ReportsServiceDeps {
  repository: ReportsRepository;
  analytics: AnalyticsRepository;
  mailer: Mailer;
  clock: Clock;
  hasPremiumAccess: (userId: number) => Promise<boolean>;
  publicUrl: string;
  logger: FastifyBaseLogger;
  attachment?: ReportAttachment | undefined;
}

const REPORTS_TOPIC = 'reports';

export interface UnsubscribeLinks {
  unsubscribePageUrl: string;
  oneClickUrl: string;
}
/** Turns the topic off for the user; answers the message the unsubscribe page shows. */
export type UnsubscribeTopic = (userId: number) => Promise<string>;

export interface ScanResult {
  sent: number;
  failed: number;
  skipped: number;
}

export function createReportsService({ repository, analytics, mailer, clock, hasPremiumAccess, publicUrl, logger, attachment }: ReportsServiceDeps) {
  function toResponse(row: ReportPreferencesRow | undefined, accountZone: string | null): ReportPreferences {
    if (!row) return { ...DEFAULTS, timeZone: canonicalTimeZone(accountZone ?? DEFAULTS.timeZone) ?? DEFAULTS.timeZone, nextReportAt: null, saved: false };
    return {
      frequency: row.frequency,
      weekday: row.weekday,
      hour: row.hour,
      timeZone: canonicalTimeZone(row.timeZone) ?? row.timeZone,
      nextReportAt: row.frequency === 'off' ? null : (row.nextRunAt?.toISOString() ?? null),
      saved: true,
    };
  }

  async function preferences(userId: number) {
    return toResponse(await repository.preferences(userId), await repository.accountTimeZone(userId));
  }

  /** Saves when reports go out; a zone in the request is the account's one zone (it moves best times too). */
  async function savePreferences(userId: number, input: ReportPreferencesRequest) {
    const now = clock.now();
    const { timeZone: requestedZone, ...schedule } = input;
    if (requestedZone !== undefined) await repository.setAccountTimeZone(userId, requestedZone);
    const timeZone = requestedZone ?? (await repository.accountTimeZone(userId)) ?? DEFAULTS.timeZone;
    await repository.savePreferences({ userId, ...schedule, nextRunAt: nextReportAt({ ...schedule, timeZone }, now), updatedAt: now });
    return preferences(userId);
  }

  /** The account's time zone changed (Settings): the next report moves to the hour in the new zone. */
  async function timeZoneChanged(userId: number) {
    const row = await repository.preferences(userId);
    if (!row || row.frequency === 'off') return;
    const now = clock.now();
    await repository.savePreferences({ ...withoutZone(row), nextRunAt: nextReportAt(row, now), updatedAt: now });
  }

  async function keyNumbers(userId: number, startDate: string, endDate: string): Promise<KeyNumbers & { connections: number }> {
    // Followers are the latest totals up to the period's end (a year back at most), summed over the platforms.
    // Revenue as on the cards: YouTube's revenue and the pledges of campaigns in US dollars over the same days.
    const [summary, followers, pledges] = await Promise.all([
      analytics.summary(userId, startDate, endDate),
      analytics.platformFollowers({ userId, startDate: addDays(endDate, -366), endDate }),
      analytics.pledgesByCurrency({ userId, startDate, endDate }),
    ]);
    const usdPledges = pledges.filter((pledge) => pledge.currency === 'USD').reduce((sum, pledge) => sum + Number(pledge.amount), 0);
    const engagementRate = summary.engaged_views > 0 ? (Number(summary.engagements) / Number(summary.engaged_views)) * 100 : 0;
    return {
      followers: followers.reduce((sum, row) => sum + Number(row.followers), 0),
      views: Number(summary.views),
      engagementRate: Math.round(engagementRate * 100) / 100,
      revenue: Math.round((Number(summary.revenue) + usdPledges) * 100) / 100,
      connections: Number(summary.connections),
    };
  }

  type ComparedRow = Awaited<ReturnType<typeof analytics.comparedTotals>>;
  const figureOrNull = (value: number | string | null) => (value === null ? null : Number(value));

  /** The report's changes, like with like as on the cards: both sides over the same connections and days. */
  function comparedFigures(row: ComparedRow): ReportData['compared'] {
    const money = (value: number | null) => (value === null ? null : Math.round(Number(value) * 100) / 100);
    return {
      followers: { current: figureOrNull(row.current_followers), previous: figureOrNull(row.comparison_followers) },
      views: { current: figureOrNull(row.current_views), previous: figureOrNull(row.comparison_views) },
      // The cards' rate (engagements over reach); a side without engagements has no rate to compare.
      engagementRate: {
        current: row.current_engagements === null ? null : engagementRate(row.current_engagements, row.current_reach),
        previous: row.comparison_engagements === null ? null : engagementRate(row.comparison_engagements, row.comparison_reach),
      },
      revenue: { current: money(row.current_revenue), previous: money(row.comparison_revenue) },
    };
  }

  /** The connections (or figures) the changes leave out or compare over fewer days, as on the cards; null when none. */
  function comparisonNote(row: ComparedRow): string | null {
    const named = (entry: ComparedRow['left_out'][number]) => ({ platform: platformDisplayName(entry.platform), account: entry.account, figures: entry.figures });
    const shortened = row.shortened.map((entry) => ({ ...named(entry), historyStart: entry.history_start, days: entry.days }));
    return comparisonSentence({ leftOut: row.left_out.map(named), shortened }, { against: null, day: dateLabel });
  }

  /**
   * `scheduledAt`: when the report was due. New insights are those of the day (or week) before it, so a report sent
   * late or retried covers the same insights as one sent on time, and consecutive reports neither skip nor repeat one.
   */
  async function buildReport(userId: number, name: string, period: ReportPeriod, scheduledAt: Date): Promise<ReportData> {
    const lengthMs = (period.frequency === 'daily' ? 1 : 7) * 24 * HOUR;
    const [current, compared, top, insights] = await Promise.all([
      keyNumbers(userId, period.startDate, period.endDate),
      analytics.comparedTotals({ userId }, period, { startDate: period.previousStartDate, endDate: period.previousEndDate }),
      analytics.topContent({ userId, startDate: period.startDate, endDate: period.endDate }, TOP_CONTENT),
      repository.newInsights(userId, new Date(scheduledAt.getTime() - lengthMs), scheduledAt, INSIGHTS),
    ]);
    return {
      name,
      period,
      current,
      compared: comparedFigures(compared),
      comparisonNote: comparisonNote(compared),
      connectedPlatforms: current.connections,
      topContent: top.map((item) => ({ title: item.title, platform: platformDisplayName(item.platform), engagement: Number(item.engagement) })),
      insights: insights.map((insight) => ({ title: insight.title, recommendation: insight.recommendation })),
    };
  }

  /** Builds and sends one claimed report; records the outcome. */
  async function deliver(delivery: { id: number; userId: number; attempts: number }, period: ReportPeriod, scheduledAt: Date): Promise<'sent' | 'failed' | 'skipped'> {
    const now = clock.now();
    try {
      const recipient = await repository.recipient(delivery.userId);
      if (!recipient) {
        await repository.markFailed(delivery.id, 'the account no longer exists', null);
        return 'skipped';
      }
      const data = await buildReport(delivery.userId, recipient.firstName, period, scheduledAt);
      const links = await unsubscribeLinks(delivery.userId, REPORTS_TOPIC);
      const mail = reportEmail(data, {
        to: recipient.email,
        dashboardUrl: `${publicUrl}/dashboard`,
        settingsUrl: `${publicUrl}/settings`,
        ...links,
        attachment: attachment ? await attachment({ userId: delivery.userId, period }) : undefined,
      });
      await mailer.send(mail);
      await repository.markSent(delivery.id, clock.now());
      logger.info({ event: 'report.sent', userId: delivery.userId, period: period.key, attempt: delivery.attempts }, 'report sent');
      return 'sent';
    } catch (error) {
      const retryAt = delivery.attempts < MAX_ATTEMPTS ? new Date(now.getTime() + RETRY_BASE_MS * 2 ** (delivery.attempts - 1)) : null;
      await repository.markFailed(delivery.id, (error as Error).message ?? 'send failed', retryAt);
      logger.error(
        { event: 'report.failed', userId: delivery.userId, period: period.key, attempt: delivery.attempts, retryAt: retryAt?.toISOString() ?? null, err: error },
        'report could not be sent',
      );
      return 'failed';
    }
  }

  /**
   * Sends every report that is due now, and retries failed ones whose time has come. Safe to run anywhere, any number
   * of times. Due users are read in batches of `limit` until none is left (each one's schedule moves on as it is
   * handled, so a batch never comes back), with a bound in case schedules keep changing under the scan.
   */
  async function runDue({ limit = 200, maxBatches = 100 }: { limit?: number; maxBatches?: number } = {}): Promise<ScanResult> {
    const now = clock.now();
    const result: ScanResult = { sent: 0, failed: 0, skipped: 0 };
    const count = (outcome: 'sent' | 'failed' | 'skipped') => {
      result[outcome] += 1;
    };

    for (let batch = 0; batch < maxBatches; batch += 1) {
      const due = await repository.duePreferences(now, limit);
      for (const preferences of due) count(await handleDue(preferences, now));
      if (due.length < limit) break;
    }

    for (const failed of await repository.dueRetries(now, limit)) {
      const reclaimed = await repository.reclaim(failed.id, now);
      if (!reclaimed) continue;
      const period = periodOfKey(reclaimed.periodKey);
      const preferences = await repository.preferences(reclaimed.userId);
      // Unsubscribed or lapsed since the first attempt: the report is no longer wanted.
      if (!period || !preferences || preferences.frequency === 'off' || !(await hasPremiumAccess(reclaimed.userId))) {
        await repository.markFailed(reclaimed.id, 'no longer wanted', null);
        count('skipped');
        continue;
      }
      // The report was due at the user's hour on the day after the period (the schedule may have changed since).
      count(await deliver(reclaimed, period, zonedTime(addDays(period.endDate, 1), preferences.hour, preferences.timeZone)));
    }

    await repository.deleteExpiredUnsubscribeTokens(now);
    return result;
  }

  /** One due user: move the schedule on, then claim and send this period's report if it is still wanted. */
  async function handleDue(preferences: ReportPreferencesRow, now: Date): Promise<'sent' | 'failed' | 'skipped'> {
    const occurrence = latestReportAt(preferences, now);
    // This occurrence is dealt with below whatever happens; the schedule moves to the next one first.
    await repository.advanceSchedule(preferences.userId, preferences.nextRunAt!, nextReportAt(preferences, now));
    // Due preferences are only those of accounts with access (the repository's SQL access rule).
    if (!occurrence || now.getTime() - occurrence.at.getTime() > STALE_AFTER_MS || preferences.frequency === 'off') return 'skipped';
    const period = reportPeriod(preferences.frequency, occurrence.localDate);
    const claimed = await repository.claim(preferences.userId, period.key, now);
    // Claimed already: another process, an earlier scan or a retry has this report.
    if (!claimed) return 'skipped';
    return deliver(claimed, period, occurrence.at);
  }

  /**
   * A fresh one-click unsubscribe token for the user and topic, as the two URLs an email carries: the page with an
   * Unsubscribe button (a link scanner's GET must not unsubscribe anyone) and the RFC 8058 POST target for the
   * List-Unsubscribe header. Other features' emails (alerts) use it with their own topic.
   */
  async function unsubscribeLinks(userId: number, topic: string): Promise<UnsubscribeLinks> {
    const now = clock.now();
    const token = randomToken(32);
    await repository.insertUnsubscribeToken({ tokenHash: sha256(token), userId, topic, createdAt: now, expiresAt: new Date(now.getTime() + UNSUBSCRIBE_TOKEN_TTL_MS) });
    const encoded = encodeURIComponent(token);
    // The page names what it stops (the token alone does not say); the one-click POST needs only the token.
    const pageTopic = topic === REPORTS_TOPIC ? '' : `&topic=${encodeURIComponent(topic)}`;
    return { unsubscribePageUrl: `${publicUrl}/unsubscribe?token=${encoded}${pageTopic}`, oneClickUrl: `${publicUrl}/api/unsubscribe?token=${encoded}` };
  }

  /** What turns each topic other than the reports off, registered by the feature that owns it. */
  const topics = new Map<string, UnsubscribeTopic>();
  function registerUnsubscribeTopic(topic: string, handler: UnsubscribeTopic) {
    topics.set(topic, handler);
  }

  async function unsubscribe(token: string) {
    const now = clock.now();
    const found = await repository.unsubscribeToken(sha256(token), now);
    const handler = found && found.topic !== REPORTS_TOPIC ? topics.get(found.topic) : undefined;
    if (!found || (found.topic !== REPORTS_TOPIC && !handler)) {
      throw new AppError('bad_request', 'This unsubscribe link is invalid or has expired. Turn these emails off in Settings instead.');
    }
    if (handler) {
      logger.info({ event: 'unsubscribed', topic: found.topic }, 'emails turned off from an email link');
      return { message: await handler(found.userId) };
    }
    await repository.turnReportsOff(found.userId, now);
    logger.info({ event: 'report.unsubscribed' }, 'reports turned off from an email link');
    return { message: 'You are unsubscribed. You will not get report emails any more.' };
  }

  return {
    preferences,
    savePreferences,
    timeZoneChanged,
    runDue,
    unsubscribe,
    unsubscribeLinks,
    registerUnsubscribeTopic,
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
