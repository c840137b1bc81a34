import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AlertKind } from '#contract/notifications.ts';
import { users } from './accounts.ts';
import { platformConnections } from './platforms.ts';

/**
 * In-app notices (decision 015). `key` names the occurrence an alert is about (e.g. `reconnect:12:1764118800000`):
 * the unique (user, key) index lets exactly one insert succeed, whichever process, retry or repeated give-up gets
 * there first, and only the one that inserted sends the email.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AlertKind>().notNull(),
    key: text('key').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The connection a reconnect notice is about; its button starts that connection's reconnect. */
    connectionId: integer('connection_id'),
    /** The platform of that connection (its OAuth flow is what the button starts). */
    platform: text('platform'),
    /** Where the notice leads (a top post alert: the post on its platform); null when nowhere but the app. */
    url: text('url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('notifications_user_key').on(table.userId, table.key), index('notifications_user_created_idx').on(table.userId, table.createdAt)],
);

/** Which alerts the user wants; no row means every kind is on. */
export const alertSettings = pgTable('alert_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  reconnect: boolean('reconnect').notNull().default(true),
  topPost: boolean('top_post').notNull().default(true),
  followerMilestone: boolean('follower_milestone').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * The top-10 % post alert's mark per connection: the age moments (24 h, 7 d, 28 d after publishing) up to this
 * instant have been evaluated. Moving it forward with a compare-and-set claims the moments in between for one
 * process, so each post and age is evaluated once.
 */
export const topPostChecks = pgTable('top_post_checks', {
  connectionId: integer('connection_id')
    .primaryKey()
    .references(() => platformConnections.id, { onDelete: 'cascade' }),
  checkedThrough: timestamp('checked_through', { withTimezone: true }).notNull(),
});
