// Multi-row inserts with one bind parameter per column: each column's values travel as one array, which the database
// unnests into rows. Drizzle's `.values(rows)` builds N × M parameters for N rows of M columns, checking each against
// its SQL chunk kinds, and the database then parses and plans an N × M parameter VALUES list: together most of a large
// first sync's time (a YouTube channel's 1,200 videos, a year of daily metrics; issue 26). Arrays cost neither, and a
// statement is no longer bounded by PostgreSQL's 65,535 parameters. The statement is the same on PGlite and PostgreSQL.
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * `insert into <table> (<columns>) select * from unnest(<one array per column>)`, for the caller to finish with its own
 * `on conflict …` and `returning …`. The columns are every key some row gives a value; each value goes through its
 * column's own mapping (a Date to an ISO timestamp, an object to JSON). A missing, undefined or null value is SQL null,
 * not the column's default (drizzle's `.values` would use the default). Returns undefined for no rows.
 */
export function insertRows<Table extends PgTable>(table: Table, rows: readonly Table['$inferInsert'][]): SQL | undefined {
  if (rows.length === 0) return undefined;
  const columns = getTableColumns(table);
  const keys = new Set<string>();
  for (const row of rows) for (const [key, value] of Object.entries(row)) if (value !== undefined) keys.add(key);
  const names: ReturnType<typeof sql.identifier>[] = [];
  const arrays: SQL[] = [];
  for (const key of keys) {
    const column = columns[key];
    if (!column) throw new Error(`insertRows: ${key} is not a column of the table`);
    const values = rows.map((row) => {
      const value = (row as Record<string, unknown>)[key];
      return value === null || value === undefined ? null : column.mapToDriverValue(value);
    });
    names.push(sql.identifier(column.name));
    // sql.param: one parameter holding the array (a bare array in the sql template would become a list of parameters).
    arrays.push(sql`${sql.param(values)}::${sql.raw(column.getSQLType())}[]`);
  }
  return sql`insert into ${table} (${sql.join(names, sql`, `)}) select * from unnest(${sql.join(arrays, sql`, `)})`;
}

/** Rows per insertRows statement: a few statements for the largest sync, each bounded in memory. */
export const INSERT_BATCH = 5000;

/** `rows` in slices of at most `size`, in order. */
export function chunks<T>(rows: readonly T[], size = INSERT_BATCH): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}
