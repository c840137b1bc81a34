// How often sign-in and mail-sending calls may be tried, per account and per IP: one policy for the sign-in
// flow and the settings calls that check a password or send mail, so neither is a cheaper oracle than the other.
const HOUR = 60 * 60_000;

export const LOGIN_LIMITS = {
  perAccount: { maxFailures: 5, windowMs: 15 * 60_000, baseBlockMs: 60_000, maxBlockMs: 15 * 60_000 },
  perIp: { limit: 20, windowMs: 60_000 },
} as const;
export const MAIL_LIMITS = {
  perIp: { limit: 3, windowMs: 60_000 },
  perAccount: { limit: 5, windowMs: HOUR },
} as const;
export const REGISTER_LIMIT_PER_IP = { limit: 10, windowMs: HOUR } as const;
