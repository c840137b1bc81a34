import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * Personal API tokens (decision 020): read-only bearer credentials a user makes in Settings for scripts.
 *
 * Only the SHA-256 of a token is stored. A plain fast hash is right here, unlike for passwords: the token carries
 * 256 bits from the CSPRNG, so nobody can guess it or search a dictionary for it, and a slow hash (argon2) would only
 * add its cost to every API call. A stolen table therefore signs nobody in.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 (hex) of the whole token `ahp_<secret>`; looked up by equality. */
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the token (`ahp_` and 8 of the secret): enough to recognise it, far too few to use it. */
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Written at most once a minute per token, so that a busy script does not cost a write per request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Revoked tokens keep their row (and hash) so that they answer 401 like any unknown token; listed no more. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('api_tokens_token_hash_key').on(table.tokenHash), index('api_tokens_user_idx').on(table.userId)],
);
