// Settings: profile, password, e-mail, sessions, time zone, and deleting the account (its subscription cancelled,
// its Stripe customer released, its connections disconnected).
import type { FastifyInstance } from 'fastify';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import { createSettingsRepository } from './settings.repository.ts';
import { type SessionsService, settingsRoutes } from './settings.routes.ts';
import { createSettingsService, type SettingsServiceDeps } from './settings.service.ts';

export interface SettingsModuleDeps extends Pick<SettingsServiceDeps, 'billing' | 'enqueueCustomerRelease' | 'platforms' | 'onTimeZoneChanged'> {
  /** The signed-in sessions the settings list and end (the accounts feature's). */
  sessions: SessionsService;
}

export function settingsModule({ config, db, clock, logger, mailer, rateLimiter }: Infrastructure, { sessions, ...deps }: SettingsModuleDeps) {
  const settings = createSettingsService({ repository: createSettingsRepository(db), rateLimiter, mailer, clock, publicUrl: config.publicUrl, logger, ...deps });
  return { routes: (app: FastifyInstance, { requireUser }: RouteContext) => settingsRoutes(app, { settings, sessions, requireUser }) };
}
