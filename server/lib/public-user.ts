// The user as the API shows it: never the password hash or any token.
import type { User } from '#contract/auth.ts';
import type { users } from '../db/schema.ts';

export function toPublicUser(row: typeof users.$inferSelect): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    emailConfirmed: row.emailConfirmedAt !== null,
    createdAt: row.createdAt.toISOString(),
    timeZone: row.timeZone ?? null,
  };
}
