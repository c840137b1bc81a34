// One time zone per account (issue 25): reports, best times and Settings read users.time_zone; migration 0025 moved
// the reports' own zone into it; names are stored as IANA's current ones.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, queryRows } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
});
afterAll(async () => {
  await server?.close();
});

const accountZone = async (account: Account) => (await server.request('GET', '/api/settings/account', { token: account.token })).body.timeZone as string | null;
const reportPreferences = async (account: Account) => (await server.request('GET', '/api/reports/preferences', { token: account.token })).body;
const patchZone = (account: Account, timeZone: unknown) => server.request('PATCH', '/api/settings/profile', { token: account.token, body: { timeZone } });

describe('the account time zone', () => {
  it('stores a retired alias by its current name, and refuses a name that is no zone with a 400 in words', async () => {
    const account = await signUpWithAccess(server);
    for (const [given, stored] of [['Asia/Calcutta', 'Asia/Kolkata'], ['asia/saigon', 'Asia/Ho_Chi_Minh'], ['Europe/Kiev', 'Europe/Kyiv'], ['Asia/Kolkata', 'Asia/Kolkata'], ['europe/berlin', 'Europe/Berlin']]) {
      expect((await patchZone(account, given)).status).toBe(200);
      expect(await accountZone(account)).toBe(stored);
      const [row] = await server.db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, account.user.id));
      expect(row!.timeZone).toBe(stored);
    }
    const bad = await patchZone(account, 'Mars/Olympus_Mons');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Unknown time zone: choose one from the list, or type an IANA name such as Europe/Paris');
    expect(await accountZone(account)).toBe('Europe/Berlin');
  });

  it('is the zone reports go out in: a report saved without a zone follows the account, and moves when the account zone changes', async () => {
    server.clock.set(new Date('2026-11-02T10:00:00Z'));
    const account = await signUpWithAccess(server);
    // No zone chosen yet: reports are read in UTC.
    expect(await reportPreferences(account)).toMatchObject({ timeZone: 'UTC', saved: false });
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).body).toMatchObject({ timeZone: null });
    expect((await patchZone(account, 'Europe/Berlin')).status).toBe(200);
    expect(await reportPreferences(account)).toMatchObject({ timeZone: 'Europe/Berlin', saved: false });
    // The same zone is every screen's: the signed-in user carries it (web/src/lib/format.ts shows dates in it).
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).body).toMatchObject({ timeZone: 'Europe/Berlin' });

    const saved = await server.request('PUT', '/api/reports/preferences', { token: account.token, body: { frequency: 'daily', weekday: 1, hour: 8 } });
    expect(saved.status).toBe(200);
    // 08:00 in Berlin (UTC+1 in November) is 07:00 UTC, tomorrow: today's 08:00 has passed.
    expect(saved.body).toMatchObject({ timeZone: 'Europe/Berlin', nextReportAt: '2026-11-03T07:00:00.000Z', saved: true });

    // The account's zone changes in Settings: the next report is at 08:00 in Kolkata (UTC+5:30).
    expect((await patchZone(account, 'Asia/Calcutta')).status).toBe(200);
    expect(await reportPreferences(account)).toMatchObject({ timeZone: 'Asia/Kolkata', nextReportAt: '2026-11-03T02:30:00.000Z' });
  });

  it('is set by a report preferences request that still names a zone (the call as it was), as the one zone', async () => {
    server.clock.set(new Date('2026-11-02T10:00:00Z'));
    const account = await signUpWithAccess(server);
    expect((await patchZone(account, 'Europe/Berlin')).status).toBe(200);
    const saved = await server.request('PUT', '/api/reports/preferences', { token: account.token, body: { frequency: 'daily', weekday: 1, hour: 8, timeZone: 'america/new_york' } });
    expect(saved.body).toMatchObject({ timeZone: 'America/New_York', nextReportAt: '2026-11-02T13:00:00.000Z' });
    expect(await accountZone(account)).toBe('America/New_York');
    const badZone = await server.request('PUT', '/api/reports/preferences', { token: account.token, body: { frequency: 'daily', weekday: 1, hour: 8, timeZone: 'Not/AZone' } });
    expect(badZone.status).toBe(400);
    expect(badZone.body.message).toMatch(/^Unknown time zone/);
  });
});

describe('migration 0025', () => {
  it("moves a report's zone to an account without one, keeps an account's own, stores current names, and drops the reports' column", async () => {
    // The schema as it was before 0025 (the test database is migrated to the newest): the reports' own zone.
    await server.db.execute(sql.raw(`alter table report_preferences add column time_zone text default 'UTC' not null`));
    const insertUser = async (name: string, timeZone: string | null) => {
      const [row] = await server.db.insert(users).values({ username: `tz_${name}_${Date.now()}`, email: `tz_${name}_${Date.now()}@example.com`, passwordHash: 'x', timeZone }).returning({ id: users.id });
      return row!.id;
    };
    const insertReport = (userId: number, timeZone: string) =>
      server.db.execute(sql`insert into report_preferences (user_id, frequency, weekday, hour, time_zone, updated_at) values (${userId}, 'daily', 1, 8, ${timeZone}, now())`);
    const onlyReport = await insertUser('only_report', null);
    await insertReport(onlyReport, 'Europe/Berlin');
    const both = await insertUser('both', 'Europe/Berlin');
    await insertReport(both, 'UTC');
    const legacyReport = await insertUser('legacy_report', null);
    await insertReport(legacyReport, 'Asia/Calcutta');
    const legacyAccount = await insertUser('legacy_account', 'Europe/Kiev');
    const neither = await insertUser('neither', null);

    const migration = readFileSync(path.join(migrationsFolder, '0026_one_time_zone.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await server.db.execute(sql.raw(statement));

    const zones = await queryRows<{ id: number; time_zone: string | null }>(server.db, sql`select id, time_zone from users where id in (${onlyReport}, ${both}, ${legacyReport}, ${legacyAccount}, ${neither})`);
    expect(Object.fromEntries(zones.map((row) => [row.id, row.time_zone]))).toEqual({
      [onlyReport]: 'Europe/Berlin',
      [both]: 'Europe/Berlin',
      [legacyReport]: 'Asia/Kolkata',
      [legacyAccount]: 'Europe/Kyiv',
      [neither]: null,
    });
    const columns = await queryRows<{ column_name: string }>(server.db, sql`select column_name from information_schema.columns where table_name = 'report_preferences' and column_name = 'time_zone'`);
    expect(columns).toEqual([]);
  });
});
