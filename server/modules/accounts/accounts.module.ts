// The accounts feature: sign-up, sign-in, sessions and password reset, and who the caller is (`requireUser`, a
// session or a personal API token).
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import { createResponseFloor } from '../../lib/response-floor.ts';
import { createRequireUser } from '../../plugins/authentication.ts';
import type { ApiTokensService } from '../api-tokens/api-tokens.service.ts';
import type { OnceMailer } from '../mail/sent-mails.ts';
import { createAccountsRepository } from './accounts.repository.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { createAccountsService } from './accounts.service.ts';
import { createPasswordResetService } from './password-reset.ts';

export interface AccountsModuleDeps {
  /** Mails sent once per user and occasion (welcome, trial started). */
  onceMailer: OnceMailer;
  apiTokens: ApiTokensService;
  /** A checkout paid before sign-up (a payment link) joins the account whose address it was paid with. */
  adoptCheckoutsByEmail: (email: string) => Promise<void>;
}

export function accountsModule({ config, db, clock, logger, mailer, rateLimiter }: Infrastructure, { onceMailer, apiTokens, adoptCheckoutsByEmail }: AccountsModuleDeps) {
  // Sign-up, sign-in and password reset share the accounts' store, mail budgets and response-time floor.
  const flows = { repository: createAccountsRepository(db), rateLimiter, mailer, clock, publicUrl: config.publicUrl, logger, responseFloor: createResponseFloor(config.authResponseFloorMs) };
  const accounts = createAccountsService({
    ...flows,
    registerLimitPerIp: config.registerLimitPerIpPerHour,
    onEmailConfirmed: (user) => adoptCheckoutsByEmail(user.email),
    onceMailer,
  });
  const passwordReset = createPasswordResetService(flows);
  const requireUser = createRequireUser(accounts, apiTokens);
  return {
    accounts,
    /** The accounts' store (the live events read a stream's session from it). */
    repository: flows.repository,
    requireUser,
    routes: (app: FastifyInstance) => accountsRoutes(app, { accounts, passwordReset, requireUser }),
  };
}
