// The /api/auth calls: one schema per request and response, shared by the server and the web app.
import { z } from 'zod';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; anything longer than this is refused before hashing (a DoS guard). */
export const PASSWORD_MAX_LENGTH = 1024;

const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(32, 'Username must be at most 32 characters')
  .regex(USERNAME_PATTERN, 'Username may contain only letters, digits, dots, dashes and underscores');

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Email must be a valid email address'));

const password = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const personName = z.string().trim().max(100, 'Names must be at most 100 characters');

export const user = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailConfirmed: z.boolean(),
  createdAt: z.iso.datetime(),
  /** The account's time zone (Settings → Time zone), in which every date is shown; null: none chosen, the device's. */
  timeZone: z.string().nullable(),
});
export type User = z.infer<typeof user>;

export const registerRequest = z.strictObject({
  username,
  email,
  password,
  firstName: personName.optional().default(''),
  lastName: personName.optional().default(''),
});
export type RegisterRequest = z.input<typeof registerRequest>;
/**
 * The account a sign-up answers with: what was submitted, waiting for its email confirmation. An address that already
 * has an account gets this same answer and nothing is created (the owner is mailed instead; decision 012), so it
 * holds nothing only a new row would have: no id, no dates.
 */
export const registeredUser = z.object({
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailConfirmed: z.literal(false),
});
export type RegisteredUser = z.infer<typeof registeredUser>;
export const registerResponse = z.object({ user: registeredUser, message: z.string() });
export type RegisterResponse = z.infer<typeof registerResponse>;

export const loginRequest = z.strictObject({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(254, 'Username is too long'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH, 'Password is too long'),
});
export type LoginRequest = z.infer<typeof loginRequest>;
export const loginResponse = z.object({ token: z.string(), user, expiresAt: z.iso.datetime() });
export type LoginResponse = z.infer<typeof loginResponse>;

/** Body of the 403 a login gets when the password is right but the email is not confirmed yet. */
export const emailConfirmationRequired = z.object({
  message: z.string(),
  code: z.literal('forbidden'),
  requiresEmailConfirmation: z.literal(true),
  email: z.string(),
});

export const confirmEmailRequest = z.strictObject({
  userId: z.number({ error: 'userId must be an integer' }).int('userId must be an integer').positive('userId must be positive'),
  token: z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200, 'Token is malformed'),
});
export type ConfirmEmailRequest = z.infer<typeof confirmEmailRequest>;
/**
 * POST /api/auth/confirm-email. 200 'Your email is confirmed. You can sign in now.' (alreadyConfirmed false); 200 'Your
 * email is already confirmed: this link was used before. You can sign in.' (alreadyConfirmed true) when the link is the
 * one that confirmed the account's current address; any other token, user id or an expired link: 400 bad_request
 * 'This confirmation link is invalid or has expired. Request a new one.', the same answer whether the account exists.
 */
export const confirmEmailResponse = z.object({ message: z.string(), alreadyConfirmed: z.boolean() });
export type ConfirmEmailResponse = z.infer<typeof confirmEmailResponse>;

export const resendConfirmationRequest = z.strictObject({ email });
export type ResendConfirmationRequest = z.infer<typeof resendConfirmationRequest>;
export const resendConfirmationResponse = z.object({ message: z.string() });

export const meResponse = user;

export const logoutResponse = z.object({ message: z.string() });

/** POST /api/auth/password-reset: mails a reset link if an account has the address (the same answer either way). */
export const passwordResetRequest = z.strictObject({ email });
export type PasswordResetRequest = z.infer<typeof passwordResetRequest>;
export const passwordResetResponse = z.object({ message: z.string() });

/** POST /api/auth/password-reset/confirm: the link's userId and token, and the new password (sign-up's rules). */
export const passwordResetConfirmRequest = z.strictObject({
  userId: confirmEmailRequest.shape.userId,
  token: confirmEmailRequest.shape.token,
  password,
});
export type PasswordResetConfirmRequest = z.infer<typeof passwordResetConfirmRequest>;
export const passwordResetConfirmResponse = z.object({ message: z.string() });

/** How long a password reset link works. */
export const PASSWORD_RESET_LINK_MINUTES = 60;
