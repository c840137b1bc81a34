// The mail budgets of the account flows (lib/account-limits.ts): per network and per address, shared by resend
// confirmation, password reset and the notices to an address's owner, so no flow is a cheaper way to mail someone.
import { MAIL_LIMITS } from '../../lib/account-limits.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';

export function tooManyRequests(retryAfterSeconds: number, message: string) {
  return new AppError('rate_limited', message, { headers: { 'retry-after': String(retryAfterSeconds) }, details: { retryAfter: retryAfterSeconds } });
}

/** Spends one mail of the address's budget; keyed on the address whether or not an account has it. */
export function spendAddressMail(rateLimiter: RateLimiter, email: string) {
  return rateLimiter.hit(`mail:email:${email.toLowerCase()}`, MAIL_LIMITS.perAccount.limit, MAIL_LIMITS.perAccount.windowMs);
}

/** Spends one mail of the network's and of the address's budgets, or answers 429 (`overAddress` past the address's). */
export async function spendMailBudgets(rateLimiter: RateLimiter, { ip, email, overAddress }: { ip: string; email: string; overAddress: string }) {
  const network = await rateLimiter.hit(`mail:ip:${ip}`, MAIL_LIMITS.perIp.limit, MAIL_LIMITS.perIp.windowMs);
  if (!network.allowed) throw tooManyRequests(network.retryAfterSeconds, 'Too many requests. Please wait a minute and try again.');
  const address = await spendAddressMail(rateLimiter, email);
  if (!address.allowed) throw tooManyRequests(address.retryAfterSeconds, overAddress);
}
