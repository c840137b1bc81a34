// The signed-in user's own account: name, email change (confirmed by a link to the new address), password change,
// and deletion of the account with everything it owns. Every credential change asks for the current password, so a
// stolen session token cannot take the account over for good (docs/security.md#sessions).
import type { FastifyBaseLogger } from 'fastify';
import {
  APP_ACCESS_SETTINGS,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type DeleteAccountRequest,
  type DeleteAccountResponse,
  type UpdateProfileFields,
} from '#contract/settings.ts';
import { canonicalTimeZone } from '#contract/time-zones.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { randomToken, sha256 } from '../../lib/secure-random.ts';
import type { UserRow } from '../accounts/accounts.repository.ts';
import { LOGIN_LIMITS, MAIL_LIMITS } from '../../lib/account-limits.ts';
import { toPublicUser } from '../../lib/public-user.ts';
import { hashPassword, isCommonPassword, verifyPassword } from '../../lib/passwords.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PlatformsService } from '../platforms/platforms.service.ts';
import { accountDeletedEmail, confirmEmailChangeEmail, emailChangeNoticeEmail, passwordChangedEmail } from './settings-emails.ts';
import type { SettingsRepository } from './settings.repository.ts';

const EMAIL_CHANGE_TTL_MS = 24 * 3_600_000;
const INVALID_LINK = 'This email change link is invalid or has expired. Ask for a new one from Settings.';
const EMAIL_TAKEN = 'An account with that email already exists';

function uniqueViolation(error: unknown): boolean {
  for (let current = error as { code?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === '23505') return true;
  }
  return false;
}

export interface SettingsServiceDeps {
  repository: SettingsRepository;
  rateLimiter: RateLimiter;
  mailer: Mailer;
  clock: Clock;
  billing: Pick<BillingService, 'cancelSubscription' | 'customerIdOf' | 'releaseCustomer'>;
  /** Retries the release of a Stripe customer later (server/modules/billing/billing.jobs.ts). */
  enqueueCustomerRelease: (customerId: string) => Promise<void>;
  platforms: Pick<PlatformsService, 'listConnections' | 'disconnect'>;
  publicUrl: string;
  logger: FastifyBaseLogger;
  /** The account's one time zone changed: reports move their next send to the hour in it (server/app.ts). */
  onTimeZoneChanged?: (userId: number) => Promise<void>;
}

export function createSettingsService({ repository, rateLimiter, mailer, clock, billing, enqueueCustomerRelease, platforms, publicUrl, logger, onTimeZoneChanged }: SettingsServiceDeps) {
  // Wrong current passwords are throttled per account like sign-in failures, so these calls are no guessing oracle.
  const passwordThrottle = rateLimiter.failureThrottle(LOGIN_LIMITS.perAccount);

  async function requireCurrentPassword(user: UserRow, password: string) {
    const key = `password-check:user:${user.id}`;
    const attempt = await passwordThrottle.reserveAttempt(key);
    if (!attempt.allowed) {
      throw new AppError('rate_limited', 'Too many wrong passwords. Please wait and try again.', {
        headers: { 'retry-after': String(attempt.retryAfterSeconds) },
        details: { retryAfter: attempt.retryAfterSeconds },
      });
    }
    if (!(await verifyPassword(user.passwordHash, password))) {
      await passwordThrottle.recordFailure(key);
      logger.info({ event: 'settings.wrong_password', userId: user.id }, 'current password rejected');
      // 403, not 401: the session is fine, and a 401 would sign the web app out.
      throw new AppError('forbidden', 'Your current password is not correct.');
    }
    await passwordThrottle.clear(key);
  }

  async function accountSettings(user: UserRow) {
    const pending = await repository.findPendingEmailChange(user.id);
    const live = pending && pending.expiresAt > clock.now() ? pending : undefined;
    // A zone stored before names were kept current (Asia/Calcutta) is answered by its current name.
    const timeZone = user.timeZone === null ? null : (canonicalTimeZone(user.timeZone) ?? user.timeZone);
    return { user: toPublicUser(user), pendingEmail: live?.newEmail ?? null, timeZone, displayCurrency: user.displayCurrency };
  }

  async function updateProfile(user: UserRow, input: UpdateProfileFields) {
    const { firstName, lastName, timeZone, displayCurrency } = input;
    const fields = Object.fromEntries(Object.entries({ firstName, lastName, timeZone, displayCurrency }).filter(([, value]) => value !== undefined));
    const row = await repository.updateProfile(user.id, fields);
    if (!row) throw new AppError('not_found', 'This account no longer exists.');
    if (timeZone !== undefined) await onTimeZoneChanged?.(user.id);
    const saved = [
      ...(firstName !== undefined || lastName !== undefined ? ['name'] : []),
      ...(timeZone !== undefined ? ['time zone'] : []),
      ...(displayCurrency !== undefined ? ['display currency'] : []),
    ];
    const message = `Your ${saved.length > 1 ? `${saved.slice(0, -1).join(', ')} and ${saved.at(-1)} are` : `${saved[0]} is`} saved.`;
    return { user: toPublicUser(row), message };
  }

  async function requestEmailChange(user: UserRow, input: ChangeEmailRequest) {
    await requireCurrentPassword(user, input.currentPassword);
    const newEmail = input.newEmail;
    if (newEmail.toLowerCase() === user.email.toLowerCase()) throw new AppError('bad_request', 'That is already your email address.');
    const limit = await rateLimiter.hit(`email-change:user:${user.id}`, MAIL_LIMITS.perAccount.limit, MAIL_LIMITS.perAccount.windowMs);
    if (!limit.allowed) {
      throw new AppError('rate_limited', 'Too many email change requests. Try again later.', { headers: { 'retry-after': String(limit.retryAfterSeconds) } });
    }
    if (await repository.emailTakenByOther(user.id, newEmail)) throw new AppError('conflict', EMAIL_TAKEN);
    const token = randomToken(32);
    const now = clock.now();
    await repository.replacePendingEmailChange({
      userId: user.id,
      newEmail,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MS),
      createdAt: now,
    });
    const link = `${publicUrl}/confirm-email-change?userId=${user.id}&token=${encodeURIComponent(token)}`;
    mailer.sendInBackground(confirmEmailChangeEmail({ to: newEmail, name: user.firstName, link }));
    mailer.sendInBackground(emailChangeNoticeEmail({ to: user.email, name: user.firstName, newEmail, completed: false }));
    logger.info({ event: 'settings.email_change_requested', userId: user.id }, 'email change requested');
    return { message: `We sent a confirmation link to ${newEmail}. Your email changes when you open it.`, pendingEmail: newEmail };
  }

  async function confirmEmailChange({ userId, token }: { userId: number; token: string }) {
    const pending = await repository.consumePendingEmailChange(userId, sha256(token));
    const before = pending ? await repository.findUser(userId) : undefined;
    if (!pending || !before || pending.expiresAt <= clock.now()) {
      logger.info({ event: 'settings.email_change_rejected', userId }, 'email change link rejected');
      throw new AppError('bad_request', INVALID_LINK);
    }
    if (await repository.emailTakenByOther(userId, pending.newEmail)) throw new AppError('conflict', EMAIL_TAKEN);
    let signedOutSessions: number;
    try {
      signedOutSessions = await repository.applyEmailChange(userId, pending.newEmail, clock.now());
    } catch (error) {
      // Another account took the address between the check and the update; the unique index decided.
      if (uniqueViolation(error)) throw new AppError('conflict', EMAIL_TAKEN);
      throw error;
    }
    // The old address hears that it no longer receives this account's mail.
    if (before.email.toLowerCase() !== pending.newEmail.toLowerCase()) {
      mailer.sendInBackground(emailChangeNoticeEmail({ to: before.email, name: before.firstName, newEmail: pending.newEmail, completed: true }));
    }
    logger.info({ event: 'settings.email_changed', userId, signedOutSessions }, 'email changed');
    return { message: 'Your new email address is confirmed. Every device was signed out: sign in again.', email: pending.newEmail };
  }

  async function changePassword(user: UserRow, sessionId: string, input: ChangePasswordRequest) {
    await requireCurrentPassword(user, input.currentPassword);
    if (isCommonPassword(input.newPassword)) throw new AppError('bad_request', 'This password is too common. Choose one that is harder to guess.');
    if (input.newPassword === input.currentPassword) throw new AppError('bad_request', 'The new password must differ from the current one.');
    const signedOutSessions = await repository.updatePasswordAndEndOtherSessions(user.id, await hashPassword(input.newPassword), sessionId);
    mailer.sendInBackground(passwordChangedEmail({ to: user.email, name: user.firstName }));
    logger.info({ event: 'settings.password_changed', userId: user.id, signedOutSessions }, 'password changed');
    return { message: 'Your password is changed. Other devices were signed out.', signedOutSessions };
  }

  /**
   * Deletes the Stripe customer of a deleted account unless an invoice still needs it (billing decides and logs why).
   * The account is gone already: Stripe being unreachable never undoes or delays that, the release is retried by a job.
   */
  async function releaseStripeCustomer(userId: number, customerId: string) {
    try {
      await billing.releaseCustomer(customerId);
    } catch (error) {
      logger.warn({ event: 'settings.delete.customer_release_failed', userId, customerId, err: error }, 'Stripe customer not released now; retrying in a job');
      try {
        await enqueueCustomerRelease(customerId);
      } catch (queueError) {
        logger.error({ event: 'settings.delete.customer_release_lost', userId, customerId, err: queueError }, 'the Stripe customer release could not be queued');
      }
    }
  }

  /**
   * Cancels the subscription at Stripe first (a deleted account must never be charged again: if Stripe cannot be
   * reached the deletion stops here and can be retried), revokes platform grants where the platform allows it
   * (best effort), deletes the user row, which cascades to everything the user owns, then deletes the Stripe
   * customer unless an invoice still needs it (never blocking: retried in a job). The answer says where to remove
   * the app at the platforms that cannot revoke it.
   */
  async function deleteAccount(user: UserRow, input: DeleteAccountRequest): Promise<DeleteAccountResponse> {
    await requireCurrentPassword(user, input.currentPassword);
    try {
      await billing.cancelSubscription(user, false);
      logger.info({ event: 'settings.delete.subscription_canceled', userId: user.id }, 'subscription cancelled for account deletion');
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) {
        logger.error({ event: 'settings.delete.cancel_failed', userId: user.id, err: error }, 'could not cancel the subscription; account kept');
        throw new AppError('bad_gateway', 'Your subscription could not be cancelled right now, so your account was not deleted. Please try again in a few minutes.');
      }
    }
    for (const connection of await platforms.listConnections(user.id)) {
      try {
        // Revokes at the platform where it offers revocation (failures are logged inside), then deletes the tokens.
        await platforms.disconnect(user.id, Number(connection.id));
      } catch (error) {
        logger.warn({ event: 'settings.delete.disconnect_failed', userId: user.id, connectionId: connection.id, err: error }, 'platform disconnect failed; the row goes with the account');
      }
    }
    // Read before the row goes: the link to the customer is deleted with the account.
    const customerId = await billing.customerIdOf(user.id);
    await repository.deleteUser(user.id);
    mailer.sendInBackground(accountDeletedEmail({ to: user.email, name: user.firstName }));
    logger.info({ event: 'settings.account_deleted', userId: user.id }, 'account deleted');
    if (customerId) await releaseStripeCustomer(user.id, customerId);
    return { message: 'Your account and all of its data were deleted.', removeAppAccessAt: APP_ACCESS_SETTINGS.map((entry) => ({ ...entry })) };
  }

  return {
    accountSettings,
    updateProfile,
    requestEmailChange,
    confirmEmailChange,
    changePassword,
    deleteAccount,
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
