// The settings every PostgreSQL connection of ours starts with (client.ts SESSION_SETTINGS): JIT off, because on a
// stock server the compilation of our large-estimate range reads was most of a cold answer.
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { openPostgres, queryRows, withSessionSettings } from './client.ts';
import { createTestDatabase } from '../test/databases.ts';

describe('withSessionSettings', () => {
  it('puts jit=off in the startup options of a URL that has none', () => {
    const url = new URL(withSessionSettings('postgres://app:secret@db.example:5432/hub?sslmode=require'));
    expect(url.searchParams.get('options')).toBe('-c jit=off');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(url.password).toBe('secret');
  });

  it("keeps the operator's own options after ours, so theirs wins for a setting both name", () => {
    const url = new URL(withSessionSettings('postgres://app@db.example/hub?options=-c%20jit%3Don%20-c%20work_mem%3D64MB'));
    expect(url.searchParams.get('options')).toBe('-c jit=off -c jit=on -c work_mem=64MB');
  });

  it('passes a string that is not a URL on unchanged', () => {
    expect(withSessionSettings('host=/var/run/postgresql dbname=hub')).toBe('host=/var/run/postgresql dbname=hub');
  });
});

describe.runIf(inject('databaseUrl'))('on PostgreSQL', () => {
  it('every pooled connection runs with jit off, and an operator option in the URL still applies', async () => {
    const database = await createTestDatabase();
    const url = new URL(database.url!);
    url.searchParams.set('options', '-c work_mem=8MB');
    const handle = openPostgres(url.toString(), { max: 3 });
    try {
      // Three connections held at once, so each is a connection of its own.
      const clients = await Promise.all([1, 2, 3].map(() => handle.pool!.connect()));
      try {
        for (const client of clients) {
          const { rows } = await client.query<{ jit: string; work_mem: string }>(`select current_setting('jit') as jit, current_setting('work_mem') as work_mem`);
          expect(rows[0]).toEqual({ jit: 'off', work_mem: '8MB' });
        }
      } finally {
        for (const client of clients) client.release();
      }
      const [ownPool] = await queryRows<{ jit: string }>(database.handle.db, sql`select current_setting('jit') as jit`);
      expect(ownPool?.jit).toBe('off');
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
