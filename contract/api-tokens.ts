// Personal API tokens (decision 020): read-only bearer credentials for the user's own scripts, managed in Settings.
// The management calls need a signed-in session; a personal token can never create, list or revoke tokens.
import { z } from 'zod';

/** Every personal token starts with this, so secret scanners (and people) can tell a leaked one. */
export const API_TOKEN_PREFIX = 'ahp_';
/** `ahp_` then 32 random bytes in base64url. */
export const API_TOKEN_PATTERN = /^ahp_[A-Za-z0-9_-]{43}$/;
/** Live (unrevoked) tokens one account may hold. */
export const MAX_API_TOKENS_PER_USER = 20;
export const API_TOKEN_NAME_MAX_LENGTH = 60;

/** One token as listed: never the token itself nor its hash. */
export const apiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's first characters (`ahp_` and 8 more), to recognise it. */
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  /** Null until the token is first used; updated at most once a minute. */
  lastUsedAt: z.iso.datetime().nullable(),
});
export type ApiToken = z.infer<typeof apiToken>;

/** GET /api/settings/api-tokens: the account's live tokens, newest first. */
export const apiTokensResponse = z.object({ tokens: z.array(apiToken) });
export type ApiTokens = z.infer<typeof apiTokensResponse>;

/** POST /api/settings/api-tokens */
export const createApiTokenRequest = z.strictObject({
  name: z
    .string({ error: 'Give the token a name' })
    .trim()
    .min(1, 'Give the token a name')
    .max(API_TOKEN_NAME_MAX_LENGTH, `Token names must be at most ${API_TOKEN_NAME_MAX_LENGTH} characters`),
});
export type CreateApiTokenRequest = z.infer<typeof createApiTokenRequest>;

/** 201: the token itself, shown this once; only its hash is kept. */
export const createApiTokenResponse = z.object({ apiToken, token: z.string(), message: z.string() });
export type CreatedApiToken = z.infer<typeof createApiTokenResponse>;

/** DELETE /api/settings/api-tokens/{id}: the token answers 401 from now on. Another user's id answers 404. */
export const apiTokenIdParams = z.strictObject({
  id: z.coerce.number({ error: 'That is not a token id' }).int('That is not a token id').positive('That is not a token id').max(2_147_483_647, 'That is not a token id'),
});
export const revokeApiTokenResponse = z.object({ message: z.string() });
