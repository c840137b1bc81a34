import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * An OAuth authorization in progress (docs/security.md#oauth-connections): created by GET /api/oauth/{platform}/auth-url, consumed
 * (deleted) by the first callback that presents its state, whoever sends it. Only the state's SHA-256 is kept;
 * the PKCE verifier is encrypted, bound to this row.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lowercase platform name; the callback's path must name the same platform (mix-up defence). */
    platform: text('platform').notNull(),
    /** Encrypted PKCE code verifier; null for platforms without PKCE (Instagram, LinkedIn, Patreon). */
    codeVerifier: text('code_verifier'),
    /** Exactly the redirect_uri sent in the authorize request; the token request repeats it. */
    redirectUri: text('redirect_uri').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('oauth_states_user_idx').on(table.userId)],
);

/**
 * A user's account on a platform: connected by OAuth (tokens encrypted with the row as associated data, see
 * server/lib/token-crypto.ts) or tracked manually as a public profile (`manual`, no tokens, read-only).
 */
export const platformConnections = pgTable(
  'platform_connections',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    platformUserId: text('platform_user_id').notNull(),
    platformUsername: text('platform_username'),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    followers: integer('followers').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    manual: boolean('manual').notNull().default(false),
    /** `v<n>:...` envelopes; null for manual connections. */
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    /** When the access token stops working; null when the platform did not say. */
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    /** When the current access token was issued (Instagram can only extend a token at least 24 hours old). */
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true }),
    scope: text('scope'),
    /**
     * ISO 4217 code of the amounts the platform reports without naming a currency (a Patreon campaign's pledges are
     * in the campaign's currency, which only its pledge events name): set by the first sync from those events when
     * the connection has none, or by the creator (never replaced by a sync); null until either names it.
     */
    currency: text('currency'),
    needsReconnect: boolean('needs_reconnect').notNull().default(false),
    /**
     * Since when the grant has not worked (refused, revoked, expired beyond renewal); null while it works. Not
     * renewed within 30 days, the connection and its data are deleted (server/modules/retention).
     */
    needsReconnectSince: timestamp('needs_reconnect_since', { withTimezone: true }),
    syncStatus: text('sync_status').notNull().default('idle'),
    syncMessage: text('sync_message'),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('platform_connections_user_account_key').on(table.userId, table.platform, table.platformUserId),
    // One platform account is linked by OAuth to at most one user (two concurrent links cannot both win);
    // anyone may track the same public profile manually.
    uniqueIndex('platform_connections_oauth_account_key').on(table.platform, table.platformUserId).where(sql`${table.manual} = false`),
    index('platform_connections_user_idx').on(table.userId),
    index('platform_connections_needs_reconnect_since_idx').on(table.needsReconnectSince).where(sql`${table.needsReconnect}`),
  ],
);
