// Alerts (decisions 015, 018): reconnect, follower milestone and top post notices and their emails, with the
// reports' one-click unsubscribe; the scan finds connections that need reconnecting outside a sync.
import type { FastifyInstance } from 'fastify';
import { alertKinds } from '#contract/notifications.ts';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';
import type { BenchmarkService } from '../content/benchmark.service.ts';
import type { ReportsService } from '../reports/reports.service.ts';
import { reconnectScanJob } from './notifications.job.ts';
import { createNotificationsRepository } from './notifications.repository.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { alertTopic, createNotificationsService } from './notifications.service.ts';

export interface NotificationsModuleDeps {
  /** The reports' unsubscribe tokens and topics: an alert's email unsubscribes its kind alone. */
  reports: Pick<ReportsService, 'unsubscribeLinks' | 'registerUnsubscribeTopic'>;
  /** The top post alert's measure (the content feature's benchmarks). */
  benchmarks: Pick<BenchmarkService, 'forPosts'>;
  /** The access rule in SQL (billing): the reconnect scan alerts only accounts with valid access. */
  ownerHasAccess: OwnerHasAccess;
}

export function notificationsModule({ config, db, clock, logger, mailer }: Infrastructure, { reports, benchmarks, ownerHasAccess }: NotificationsModuleDeps) {
  const notifications = createNotificationsService({
    repository: createNotificationsRepository(db, ownerHasAccess),
    mailer,
    clock,
    publicUrl: config.publicUrl,
    unsubscribeLinks: reports.unsubscribeLinks,
    benchmarks,
    logger,
  });
  for (const kind of alertKinds) reports.registerUnsubscribeTopic(alertTopic(kind), (userId) => notifications.turnOffFromEmail(kind, userId));
  return {
    notifications,
    jobs: [reconnectScanJob(notifications, logger)],
    routes: (app: FastifyInstance, { requireUser }: RouteContext) => notificationsRoutes(app, { notifications, requireUser }),
  };
}
