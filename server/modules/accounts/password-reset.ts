// "Forgot password?" (issue 25): a single-use link valid an hour, mailed to the account's address, that sets a new
// password under sign-up's rules and ends every session. The request answers the same whatever the address, after the
// same response floor as sign-up (so neither its words nor its timing tell whether an account has the address), and
// shares the address's and the network's mail budgets with resend confirmation.
import type { FastifyBaseLogger } from 'fastify';
import { PASSWORD_RESET_LINK_MINUTES, type PasswordResetConfirmRequest } from '#contract/auth.ts';
import { LOGIN_LIMITS } from '../../lib/account-limits.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, isCommonPassword } from '../../lib/passwords.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { ResponseFloor } from '../../lib/response-floor.ts';
import { randomToken, sha256 } from '../../lib/secure-random.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { passwordResetDoneEmail, passwordResetEmail } from './emails.ts';
import { spendMailBudgets } from './mail-budget.ts';

const LINK_TTL_MS = PASSWORD_RESET_LINK_MINUTES * 60_000;

export const PASSWORD_RESET_ACCEPTED = 'If an account has that email address, a link to choose a new password is on its way. It works for an hour.';
export const PASSWORD_RESET_INVALID = 'This password reset link is invalid, used or expired. Ask for a new one.';

export interface PasswordResetDeps {
  repository: AccountsRepository;
  rateLimiter: RateLimiter;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  logger: FastifyBaseLogger;
  responseFloor: ResponseFloor;
}

export function createPasswordResetService({ repository, rateLimiter, mailer, clock, publicUrl, logger, responseFloor }: PasswordResetDeps) {
  const loginThrottle = rateLimiter.failureThrottle(LOGIN_LIMITS.perAccount);

  async function requestNow(email: string, ip: string) {
    await spendMailBudgets(rateLimiter, { ip, email, overAddress: 'Too many emails requested for this address. Try again later.' });
    const user = await repository.findUserByEmail(email);
    const token = randomToken(32);
    if (user) {
      const now = clock.now();
      await repository.replacePasswordResetToken({ userId: user.id, tokenHash: sha256(token), email: user.email, expiresAt: new Date(now.getTime() + LINK_TTL_MS), createdAt: now });
      // The link's base is configuration, never the request's Host header.
      const link = `${publicUrl}/reset-password?userId=${user.id}&token=${encodeURIComponent(token)}`;
      mailer.sendInBackground(passwordResetEmail({ to: user.email, name: user.firstName, username: user.username, link, minutes: PASSWORD_RESET_LINK_MINUTES }));
    }
    logger.info({ event: 'password_reset.requested', userId: user?.id, known: user !== undefined }, 'password reset requested');
    return { message: PASSWORD_RESET_ACCEPTED };
  }

  /** Mails a reset link when an account has the address; the same answer, after the same time, when none has. */
  function request(email: string, ip: string) {
    return responseFloor(() => requestNow(email, ip));
  }

  /**
   * Sets the new password if the link is the account's newest, unused and under an hour old, and was sent to the
   * address the account still has. Every session ends (the token is spent first, so a second use fails even when two
   * race), and sign-in failures counted against the account are forgiven: the owner just proved the address.
   */
  async function confirm({ userId, token, password }: PasswordResetConfirmRequest) {
    if (isCommonPassword(password)) throw new AppError('bad_request', 'This password is too common. Choose one that is harder to guess.');
    const spent = await repository.consumePasswordResetToken(userId, sha256(token));
    const user = spent ? await repository.findUserById(userId) : undefined;
    const valid = spent !== undefined && user !== undefined && spent.expiresAt.getTime() > clock.now().getTime() && spent.email.toLowerCase() === user.email.toLowerCase();
    if (!valid || !user) {
      logger.info({ event: 'password_reset.rejected', userId }, 'password reset link rejected');
      throw new AppError('bad_request', PASSWORD_RESET_INVALID);
    }
    const signedOutSessions = await repository.resetPassword(user.id, await hashPassword(password), clock.now());
    await loginThrottle.clear(`login:user:${user.id}`);
    mailer.sendInBackground(passwordResetDoneEmail({ to: user.email, name: user.firstName }));
    logger.info({ event: 'password_reset.completed', userId: user.id, signedOutSessions }, 'password reset');
    return { message: 'Your password is changed and every device was signed out. Sign in with the new password.' };
  }

  return { request, confirm };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
