// How long platform data is kept (docs/platforms/data-retention.md), applied once a day:
// - a lapsed account (trial or subscription ended) keeps its synced data for 30 days, announced by mail 7 days
//   before the deletion; then its connections are disconnected (the grant withdrawn where the platform offers it)
//   and deleted with everything read through them. The account, billing and settings stay. Subscribing again before
//   then keeps everything: the account has access again and is no longer picked.
// - a connection whose grant stopped working (refused, revoked, expired beyond renewal) and was not renewed within 30
//   days is deleted with its data (YouTube API Services Developer Policies III.D.2.c).
// - a tracked public YouTube channel (read with the API key) keeps at most 30 days of statistics (III.E.4.d).
// - in-app notices about connections that no longer exist go too (a user's disconnect deletes the connection at once).
// Every step re-reads the state and deletes only what is still due, so a second run (another process, a retry) finds
// nothing more to do; the notice is claimed in sent_mails, so it goes out once.
import type { FastifyBaseLogger } from 'fastify';
import { BROKEN_GRANT_KEPT_DAYS } from '#contract/platforms.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import type { AccessEndFields } from '../billing/subscription-state.ts';
import type { OnceMailer } from '../mail/sent-mails.ts';
import type { PlatformsService } from '../platforms/platforms.service.ts';
import { dataDeletionNoticeEmail } from './retention-emails.ts';
import type { LapsedAccount, RetentionRepository } from './retention.repository.ts';

const DAY_MS = 86_400_000;
/** The deletion notice goes out this long before the deletion, and the deletion never comes sooner after it. */
export const DELETION_NOTICE_MS = 7 * DAY_MS;
/** Calendar days of a tracked public YouTube channel's statistics that are kept, today included. */
export const TRACKED_YOUTUBE_DAYS = 30;


/** How a lapse is dated (the billing feature's rules, passed in by server/app.ts); null while access is valid. */
export interface RetentionLapse {
  accessEndedAt(row: AccessEndFields, now: Date): Date | null;
  /** The same moment the billing status answers as `dataDeletedOn`. */
  dataDeletionAt(row: AccessEndFields, now: Date): Date | null;
}

export interface RetentionRun {
  /** Deletion notices sent to lapsed accounts. */
  noticesSent: number;
  /** Lapsed accounts whose synced data was deleted. */
  lapsedAccountsDeleted: number;
  /** Connections deleted: those of lapsed accounts, and those whose grant was not renewed. */
  connectionsDeleted: number;
  /** Days of tracked public YouTube channels' statistics deleted. */
  trackedDaysDeleted: number;
  /** Notices about connections that no longer exist. */
  orphanNoticesDeleted: number;
}

export function createRetentionService({
  repository,
  platforms,
  onceMailer,
  clock,
  logger,
  billingUrl,
  lapse,
}: {
  repository: RetentionRepository;
  /**
   * The billing feature's dating of a lapse (subscription-state.ts): when access ended, and when the data is deleted
   * (the same date the billing status answers as dataDeletedOn); null while access is valid.
   */
  lapse: RetentionLapse;
  /** Disconnects as the user would: the grant withdrawn at the platform where it offers that, then the connection deleted. */
  platforms: Pick<PlatformsService, 'disconnect'>;
  onceMailer: OnceMailer;
  clock: Clock;
  logger: FastifyBaseLogger;
  billingUrl: string;
}) {
  /** Notices or deletes one lapsed account's data; answers what it did. */
  async function applyToLapsedAccount(account: LapsedAccount, now: Date): Promise<{ noticed: boolean; deleted: number }> {
    const ended = lapse.accessEndedAt(account, now);
    const deletionAt = lapse.dataDeletionAt(account, now);
    if (!ended || !deletionAt) return { noticed: false, deleted: 0 };
    if (now.getTime() < deletionAt.getTime() - DELETION_NOTICE_MS) return { noticed: false, deleted: 0 };
    // One notice per lapse: a later lapse (subscribed again, then ended again) is announced again.
    const ref = ended.toISOString();
    const noticedAt = await repository.noticeSentAt(account.userId, ref);
    if (!noticedAt) {
      // Late (the job did not run for days): the deletion waits a full week after the notice, and the notice says so.
      const announced = new Date(Math.max(deletionAt.getTime(), now.getTime() + DELETION_NOTICE_MS));
      const noticed = await onceMailer.sendOnce({ userId: account.userId, kind: 'data_deletion_notice', ref }, async () => {
        const recipient = await repository.recipient(account.userId);
        return recipient && dataDeletionNoticeEmail({ to: recipient.email, name: recipient.firstName, deletionAt: announced, timeZone: recipient.timeZone, billingUrl });
      });
      if (noticed) logger.info({ event: 'retention.notice_sent', userId: account.userId, deletionAt: announced.toISOString() }, 'lapsed account told of its data deletion');
      return { noticed, deleted: 0 };
    }
    if (now.getTime() < Math.max(deletionAt.getTime(), noticedAt.getTime() + DELETION_NOTICE_MS)) return { noticed: false, deleted: 0 };
    let deleted = 0;
    for (const connectionId of await repository.connectionIdsOf(account.userId)) {
      try {
        deleted += (await platforms.disconnect(account.userId, connectionId)).disconnected;
      } catch (error) {
        // Deleted meanwhile (the user disconnected it, or another run did): nothing left to do for it.
        logger.info({ event: 'retention.connection_gone', userId: account.userId, connectionId, reason: (error as Error).message }, 'connection already gone');
      }
    }
    await repository.deleteCachedAnswers(account.userId);
    logger.info({ event: 'retention.lapsed_data_deleted', userId: account.userId, connections: deleted, accessEndedAt: ended.toISOString() }, 'lapsed account data deleted');
    return { noticed: false, deleted };
  }

  return {
    async run(): Promise<RetentionRun> {
      const now = clock.now();
      const result: RetentionRun = { noticesSent: 0, lapsedAccountsDeleted: 0, connectionsDeleted: 0, trackedDaysDeleted: 0, orphanNoticesDeleted: 0 };

      for (const account of await repository.lapsedAccountsWithConnections(now)) {
        const done = await applyToLapsedAccount(account, now);
        if (done.noticed) result.noticesSent += 1;
        if (done.deleted > 0) result.lapsedAccountsDeleted += 1;
        result.connectionsDeleted += done.deleted;
      }

      const brokenSince = new Date(now.getTime() - BROKEN_GRANT_KEPT_DAYS * DAY_MS);
      for (const connection of await repository.staleReconnects(brokenSince)) {
        // The grant no longer works, so there is nothing to withdraw at the platform: the stored data goes.
        if (!(await repository.deleteStaleReconnect(connection.id, brokenSince))) continue;
        result.connectionsDeleted += 1;
        await repository.deleteCachedAnswers(connection.userId);
        logger.info({ event: 'retention.broken_grant_deleted', userId: connection.userId, connectionId: connection.id, platform: connection.platform }, 'connection not reconnected within 30 days: deleted with its data');
      }

      result.trackedDaysDeleted = await repository.deleteTrackedYouTubeHistory(addDays(dayOf(now), -(TRACKED_YOUTUBE_DAYS - 1)));
      result.orphanNoticesDeleted = await repository.deleteOrphanNotices();
      return result;
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
