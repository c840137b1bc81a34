// The /api/settings calls: the signed-in user's own account (name, email change, password, deletion). Open to every
// signed-in user, with or without a subscription: managing or deleting an account must never sit behind a paywall.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, user } from './auth.ts';
import type { PlatformName } from './platforms.ts';
import { displayCurrency } from './income.ts';
import { timeZone } from './time-zones.ts';

const personName = z.string({ error: 'Names must be text' }).trim().max(100, 'Names must be at most 100 characters');

const currentPassword = z
  .string({ error: 'Enter your current password' })
  .min(1, 'Enter your current password')
  .max(PASSWORD_MAX_LENGTH, 'Password is too long');

/** The same rules as registration (contract/auth.ts); the common-password check runs on the server. */
const newPassword = z
  .string({ error: 'Enter a new password' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Email must be a valid email address'));

/** GET /api/settings/account */
export const accountSettingsResponse = z.object({
  user,
  /** An email change waiting for its confirmation link, if any. */
  pendingEmail: z.string().nullable(),
  /** The IANA zone weekday and hour figures use (best time to post); null: the browser's own zone. */
  timeZone: z.string().nullable(),
  /** The currency the income view shows amounts in (converted only with a dated ECB rate); USD by default. */
  displayCurrency: z.string(),
});
export type AccountSettings = z.infer<typeof accountSettingsResponse>;

/**
 * PATCH /api/settings/profile: the name, the time zone, or both; a field left out stays as it is. `timeZone: null`
 * goes back to the browser's zone.
 */
export const updateProfileRequest = z
  .strictObject({ firstName: personName.optional(), lastName: personName.optional(), timeZone: timeZone.nullable().optional(), displayCurrency: displayCurrency.optional() })
  .refine(
    (body) => body.firstName !== undefined || body.lastName !== undefined || body.timeZone !== undefined || body.displayCurrency !== undefined,
    'Send a name, a time zone or a display currency to save',
  );
export type UpdateProfileRequest = z.input<typeof updateProfileRequest>;
export type UpdateProfileFields = z.infer<typeof updateProfileRequest>;
export const updateProfileResponse = z.object({ user, message: z.string() });

/** POST /api/settings/email: sends a link to the new address; 409 when another account has it. */
export const changeEmailRequest = z.strictObject({ newEmail: email, currentPassword });
export type ChangeEmailRequest = z.infer<typeof changeEmailRequest>;
export const changeEmailResponse = z.object({ message: z.string(), pendingEmail: z.string() });

/** POST /api/settings/email/confirm: public (the link may be opened on another device); the token is the proof. */
export const confirmEmailChangeRequest = z.strictObject({
  userId: z.number({ error: 'userId must be an integer' }).int('userId must be an integer').positive('userId must be positive'),
  token: z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200, 'Token is malformed'),
});
export type ConfirmEmailChangeRequest = z.infer<typeof confirmEmailChangeRequest>;
export const confirmEmailChangeResponse = z.object({ message: z.string(), email: z.string() });

/** POST /api/settings/password: every other session is signed out; this one stays. */
export const changePasswordRequest = z.strictObject({ currentPassword, newPassword });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
export const changePasswordResponse = z.object({ message: z.string(), signedOutSessions: z.number().int() });

/** POST /api/settings/account/delete: irreversible; the subscription is cancelled at once. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';
export const deleteAccountRequest = z.strictObject({
  currentPassword,
  confirmation: z.literal(DELETE_CONFIRMATION_WORD, { error: `Type ${DELETE_CONFIRMATION_WORD} to confirm` }),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequest>;

/**
 * The platforms that give apps no way to revoke their access (LinkedIn, Patreon, Instagram: docs/platforms): deleting
 * an account, or disconnecting, cannot end Analytics Hub's access there, so the user is told where to remove it.
 */
export const APP_ACCESS_SETTINGS: readonly { platform: PlatformName; name: string; page: string; url: string }[] = [
  { platform: 'linkedin', name: 'LinkedIn', page: 'Permitted services', url: 'https://www.linkedin.com/mypreferences/d/permitted-services' },
  { platform: 'patreon', name: 'Patreon', page: 'Settings, Apps', url: 'https://www.patreon.com/settings/apps' },
  { platform: 'instagram', name: 'Instagram', page: 'Apps and websites', url: 'https://www.instagram.com/accounts/manage_access/' },
];

export const deleteAccountResponse = z.object({
  message: z.string(),
  /** Where to remove Analytics Hub at the platforms that cannot be told to forget it (APP_ACCESS_SETTINGS). */
  removeAppAccessAt: z.array(z.object({ platform: z.string(), name: z.string(), page: z.string(), url: z.string() })),
});
export type DeleteAccountResponse = z.infer<typeof deleteAccountResponse>;

/** The public half of a session token `<id>.<secret>`: it names a session, and alone signs nobody in. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** One place the account is signed in. `lastUsedAt` is updated at most once an hour. */
export const accountSession = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  /** The browser and system of the sign-in, from its User-Agent ("Firefox on Windows"). */
  device: z.string(),
  /** The session making this call. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;

/** GET /api/settings/sessions: the account's live sessions, the current one first, then the most recently used. */
export const accountSessionsResponse = z.object({ sessions: z.array(accountSession) });
export type AccountSessions = z.infer<typeof accountSessionsResponse>;

/** DELETE /api/settings/sessions/{id}: ends that session (the current one too: that is signing out). */
export const sessionIdParams = z.strictObject({ id: z.string().regex(SESSION_ID_PATTERN, 'That is not a session id') });
export const endSessionResponse = z.object({ message: z.string() });

/** DELETE /api/settings/sessions: "Sign out everywhere else": every session but the current one ends. */
export const endOtherSessionsResponse = z.object({ message: z.string(), signedOutSessions: z.number().int() });
export type EndOtherSessionsResponse = z.infer<typeof endOtherSessionsResponse>;
