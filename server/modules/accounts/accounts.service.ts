// Sign-up, email confirmation, sign-in and sessions. Routes only translate HTTP to these functions.
import type { FastifyBaseLogger } from 'fastify';
import type { ConfirmEmailResponse, LoginRequest, RegisteredUser, User } from '#contract/auth.ts';
import type { AccountSession } from '#contract/settings.ts';
import { LOGIN_LIMITS, REGISTER_LIMIT_PER_IP } from '../../lib/account-limits.ts';
import { AppError } from '../../lib/app-error.ts';
import { toPublicUser } from '../../lib/public-user.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { ResponseFloor } from '../../lib/response-floor.ts';
import { digestsEqual, randomToken, sha256 } from '../../lib/secure-random.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { OnceMailer } from '../mail/sent-mails.ts';
import { type AccountsRepository, type SessionContext, sessionContextOf, type UserRow } from './accounts.repository.ts';
import { deviceName } from './device-name.ts';
import { spendAddressMail, spendMailBudgets, tooManyRequests } from './mail-budget.ts';
import { confirmationEmail, signUpAttemptEmail, welcomeEmail } from './emails.ts';
import { hashPassword, isCommonPassword, verifyAgainstDummy, verifyPassword } from '../../lib/passwords.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const SESSION_IDLE_TIMEOUT_MS = 7 * DAY;
export const SESSION_ABSOLUTE_TIMEOUT_MS = 30 * DAY;
/** last_used_at is written at most this often per session (one write an hour, not one per request). */
const SESSION_TOUCH_INTERVAL_MS = HOUR;
const CONFIRMATION_TOKEN_TTL_MS = 48 * HOUR;

const INVALID_CREDENTIALS = 'Invalid username or password';
const INVALID_CONFIRMATION = 'This confirmation link is invalid or has expired. Request a new one.';
const CONFIRMED = 'Your email is confirmed. You can sign in now.';
const ALREADY_CONFIRMED = 'Your email is already confirmed: this link was used before. You can sign in.';
const RESEND_ACCEPTED = 'If an account with that email is waiting for confirmation, a new confirmation link is on its way.';

function uniqueViolation(error: unknown): string | undefined {
  for (let current = error as { code?: string; constraint?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === '23505') return current.constraint ?? 'unique';
  }
  return undefined;
}

// Session tokens are `<id>.<secret>`: 16 random bytes of id, 32 of secret, base64url.
const SESSION_TOKEN_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export interface AccountsServiceDeps {
  repository: AccountsRepository;
  rateLimiter: RateLimiter;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  logger: FastifyBaseLogger;
  /** Sign-ups per client IP per hour; default REGISTER_LIMIT_PER_IP. */
  registerLimitPerIp?: number;
  /** The minimum response time of sign-up and resend confirmation (server/lib/response-floor.ts). */
  responseFloor: ResponseFloor;
  /** An address was confirmed: billing joins checkouts paid with it before the account existed (server/app.ts). */
  onEmailConfirmed?: (user: { id: number; email: string }) => Promise<void>;
  /** The welcome mail goes out once per account, on its first confirmation (server/modules/mail/sent-mails.ts). */
  onceMailer: OnceMailer;
}

export function createAccountsService({
  repository,
  rateLimiter,
  mailer,
  clock,
  publicUrl,
  logger,
  registerLimitPerIp = REGISTER_LIMIT_PER_IP.limit,
  responseFloor,
  onEmailConfirmed,
  onceMailer,
}: AccountsServiceDeps) {
  const loginThrottle = rateLimiter.failureThrottle(LOGIN_LIMITS.perAccount);

  async function sendConfirmation(user: UserRow) {
    const token = randomToken(32);
    const now = clock.now();
    await repository.replaceConfirmationToken({
      userId: user.id,
      tokenHash: sha256(token),
      email: user.email,
      expiresAt: new Date(now.getTime() + CONFIRMATION_TOKEN_TTL_MS),
      createdAt: now,
    });
    // The link's base is configuration, never the request's Host header.
    const link = `${publicUrl}/confirm-email?userId=${user.id}&token=${encodeURIComponent(token)}`;
    mailer.sendInBackground(confirmationEmail({ to: user.email, name: user.firstName, link }));
  }

  /**
   * The address's owner hears that someone tried to sign up with it, instead of the sign-up answer saying so. The
   * mail shares the address's mail budget with resend confirmation, and over it nothing is sent (still the same answer).
   */
  async function tellOwnerOfSignUpAttempt(email: string) {
    const owner = await repository.findUserByEmail(email);
    if (!owner) return;
    const limit = await spendAddressMail(rateLimiter, email);
    logger.info({ event: 'account.sign_up_existing_email', userId: owner.id, mailed: limit.allowed }, 'sign-up with an email that has an account: nothing created');
    if (!limit.allowed) return;
    mailer.sendInBackground(
      signUpAttemptEmail({
        to: owner.email,
        name: owner.firstName,
        username: owner.username,
        confirmed: owner.emailConfirmedAt !== null,
        signInLink: `${publicUrl}/login`,
        resendLink: `${publicUrl}/resend-confirmation`,
      }),
    );
  }

  /**
   * Creates an unconfirmed account and mails its confirmation link. An address that already has an account gets the
   * same answer, nothing is created, and its owner is mailed instead (decision 012); a taken username is still said
   * (decision 003). Both paths hash the password and answer after the same response-time floor.
   */
  async function register(input: { username: string; email: string; password: string; firstName: string; lastName: string }, ip: string): Promise<RegisteredUser> {
    return responseFloor(async () => {
      const ipLimit = await rateLimiter.hit(`register:ip:${ip}`, registerLimitPerIp, REGISTER_LIMIT_PER_IP.windowMs);
      if (!ipLimit.allowed) throw tooManyRequests(ipLimit.retryAfterSeconds, 'Too many sign-ups from this network. Try again later.');
      if (isCommonPassword(input.password)) {
        throw new AppError('bad_request', 'This password is too common. Choose one that is harder to guess.');
      }
      const taken = await repository.usernameOrEmailTaken(input.username, input.email);
      if (taken.username) throw new AppError('conflict', 'That username is already taken');
      const registered: RegisteredUser = { username: input.username, email: input.email, firstName: input.firstName, lastName: input.lastName, emailConfirmed: false };
      const passwordHash = await hashPassword(input.password);
      if (taken.email) {
        await tellOwnerOfSignUpAttempt(input.email);
        return registered;
      }
      let user: UserRow;
      try {
        user = await repository.insertUser({
          username: input.username,
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          createdAt: clock.now(),
        });
      } catch (error) {
        // Two sign-ups raced past the check above; the unique index decided the winner.
        const constraint = uniqueViolation(error);
        if (constraint?.includes('username')) throw new AppError('conflict', 'That username is already taken');
        if (constraint) {
          await tellOwnerOfSignUpAttempt(input.email);
          return registered;
        }
        throw error;
      }
      await sendConfirmation(user);
      logger.info({ event: 'account.registered', userId: user.id }, 'account registered');
      return registered;
    });
  }

  async function confirmEmail({ userId, token }: { userId: number; token: string }): Promise<ConfirmEmailResponse> {
    const tokenHash = sha256(token);
    const consumed = await repository.consumeConfirmationToken(userId, tokenHash, clock.now());
    const user = await repository.findUserById(userId);
    const valid = consumed !== undefined && user !== undefined && consumed.email.toLowerCase() === user.email.toLowerCase();
    if (!valid || !user) {
      // Said only to whoever holds the link that confirmed this address: a guessed id or token learns nothing.
      const used = consumed === undefined ? await repository.findUsedConfirmationToken(userId, tokenHash) : undefined;
      if (used && user?.emailConfirmedAt && used.email.toLowerCase() === user.email.toLowerCase()) {
        logger.info({ event: 'email.confirmation_reused', userId }, 'confirmation link opened again');
        return { message: ALREADY_CONFIRMED, alreadyConfirmed: true };
      }
      logger.info({ event: 'email.confirmation_rejected', userId }, 'confirmation rejected');
      throw new AppError('bad_request', INVALID_CONFIRMATION);
    }
    if (!user.emailConfirmedAt) await repository.markEmailConfirmed(user.id, clock.now());
    logger.info({ event: 'email.confirmed', userId }, 'email confirmed');
    // Once per account, whichever of its links is opened and however often; an address changed later in Settings is
    // confirmed there and gets no second welcome.
    await onceMailer.sendOnce({ userId: user.id, kind: 'welcome' }, () =>
      welcomeEmail({ to: user.email, name: user.firstName, platformsUrl: `${publicUrl}/platforms`, billingUrl: `${publicUrl}/billing` }),
    );
    await onEmailConfirmed?.({ id: user.id, email: user.email });
    return { message: CONFIRMED, alreadyConfirmed: false };
  }

  async function resendConfirmation(email: string, ip: string) {
    return responseFloor(() => resendConfirmationNow(email, ip));
  }

  async function resendConfirmationNow(email: string, ip: string) {
    await spendMailBudgets(rateLimiter, { ip, email, overAddress: 'Too many confirmation emails requested. Try again later.' });
    const user = await repository.findUserByEmail(email);
    // Sending happens in the background, and the response floor hides the token write: the answer takes the same
    // time whether or not mail goes out.
    if (user && !user.emailConfirmedAt) await sendConfirmation(user);
    else randomToken(32);
    return { message: RESEND_ACCEPTED };
  }

  async function createSession(user: UserRow, userAgent: string | undefined) {
    const id = randomToken(16);
    const secret = randomToken(32);
    const now = clock.now();
    await repository.insertSession({ id, userId: user.id, secretHash: sha256(secret), createdAt: now, lastUsedAt: now, userAgent: userAgent?.slice(0, 300) ?? null });
    const expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_TIMEOUT_MS, now.getTime() + SESSION_ABSOLUTE_TIMEOUT_MS));
    return { token: `${id}.${secret}`, expiresAt: expiresAt.toISOString() };
  }

  async function login({ username, password }: LoginRequest, context: { ip: string; userAgent: string | undefined }) {
    const ipLimit = await rateLimiter.hit(`login:ip:${context.ip}`, LOGIN_LIMITS.perIp.limit, LOGIN_LIMITS.perIp.windowMs);
    if (!ipLimit.allowed) {
      logger.warn({ event: 'login.rate_limited', outcome: 'denied', scope: 'ip', ip: context.ip }, 'login rate limited');
      throw tooManyRequests(ipLimit.retryAfterSeconds, 'Too many sign-in attempts from this network. Please wait and try again.');
    }
    const user = await repository.findUserByLogin(username);
    const throttleKey = user ? `login:user:${user.id}` : `login:name:${username.toLowerCase()}`;
    const attempt = await loginThrottle.reserveAttempt(throttleKey);
    if (!attempt.allowed) {
      logger.warn({ event: 'login.rate_limited', outcome: 'denied', scope: 'account', userId: user?.id, ip: context.ip }, 'login rate limited');
      throw tooManyRequests(attempt.retryAfterSeconds, 'Too many failed sign-in attempts. Please wait and try again.');
    }
    const passwordMatches = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
    if (!user || !passwordMatches) {
      await loginThrottle.recordFailure(throttleKey);
      logger.info({ event: 'login.failed', outcome: 'failure', userId: user?.id, ip: context.ip }, 'login failed');
      throw new AppError('unauthorized', INVALID_CREDENTIALS);
    }
    await loginThrottle.clear(throttleKey);
    // Only revealed after a correct password, so it tells a guesser nothing.
    if (!user.emailConfirmedAt) {
      logger.info({ event: 'login.unconfirmed', outcome: 'denied', userId: user.id, ip: context.ip }, 'login refused: email not confirmed');
      throw new AppError('forbidden', 'Please confirm your email address before logging in.', {
        details: { requiresEmailConfirmation: true, email: user.email },
      });
    }
    const session = await createSession(user, context.userAgent);
    logger.info({ event: 'login.succeeded', outcome: 'success', userId: user.id, ip: context.ip }, 'login succeeded');
    return { ...session, user: toPublicUser(user) };
  }

  /** Resolves a bearer token to its session and user, or undefined when missing, wrong, idle or too old. */
  async function authenticate(token: string): Promise<SessionContext | undefined> {
    const match = SESSION_TOKEN_PATTERN.exec(token);
    if (!match) return undefined;
    const [, sessionId, secret] = match as unknown as [string, string, string];
    const found = await repository.findSessionContext(sessionId);
    if (!found || !digestsEqual(found.session.secretHash, sha256(secret))) return undefined;
    const now = clock.now().getTime();
    const { session } = found;
    const idleExpired = now - session.lastUsedAt.getTime() > SESSION_IDLE_TIMEOUT_MS;
    const absoluteExpired = now - session.createdAt.getTime() > SESSION_ABSOLUTE_TIMEOUT_MS;
    if (idleExpired || absoluteExpired) {
      await repository.deleteSession(session.id);
      return undefined;
    }
    if (now - session.lastUsedAt.getTime() > SESSION_TOUCH_INTERVAL_MS) await repository.touchSession(session.id, new Date(now));
    return sessionContextOf(found);
  }

  async function logout(sessionId: string) {
    await repository.deleteSession(sessionId);
  }

  /** Where the user is signed in (checklist 9): live sessions only, the calling one first. */
  async function listSessions(userId: number, currentSessionId: string): Promise<AccountSession[]> {
    const now = clock.now().getTime();
    const rows = await repository.listLiveSessions(userId, {
      usedAfter: new Date(now - SESSION_IDLE_TIMEOUT_MS),
      createdAfter: new Date(now - SESSION_ABSOLUTE_TIMEOUT_MS),
    });
    const listed = rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt.toISOString(),
      device: deviceName(row.userAgent),
      current: row.id === currentSessionId,
    }));
    return [...listed.filter((session) => session.current), ...listed.filter((session) => !session.current)];
  }

  /**
   * Ends one of the user's sessions: its token answers 401 from now on and its live-update streams close. Another
   * user's session id reads as an ended one (404), so ids cannot be probed.
   */
  async function endSession(userId: number, sessionId: string, currentSessionId: string) {
    if (!(await repository.deleteSessionOfUser(userId, sessionId))) throw new AppError('not_found', 'That session has already ended.');
    const current = sessionId === currentSessionId;
    logger.info({ event: 'session.ended', userId, current }, 'session ended from settings');
    return { message: current ? 'You are signed out on this device.' : 'That device is signed out.' };
  }

  /** "Sign out everywhere else": every session of the user but the calling one ends. */
  async function endOtherSessions(userId: number, currentSessionId: string) {
    const signedOutSessions = await repository.deleteOtherSessions(userId, currentSessionId);
    logger.info({ event: 'session.ended_others', userId, signedOutSessions }, 'other sessions ended from settings');
    const message =
      signedOutSessions === 0
        ? 'No other device was signed in.'
        : `Signed out everywhere else: ${signedOutSessions} ${signedOutSessions === 1 ? 'session' : 'sessions'} ended.`;
    return { message, signedOutSessions };
  }

  return { register, confirmEmail, resendConfirmation, login, authenticate, logout, toPublicUser, listSessions, endSession, endOtherSessions };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
