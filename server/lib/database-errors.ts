// Database errors as the logs and the error handler see them. Drizzle wraps a failed query in an error whose
// message and fields carry the bound parameters (an email, a token hash, a user's text): none of that may reach a
// log line. What is kept: the SQLSTATE code, a short name for the query, and the driver's own message.

/** SQLSTATE codes of text the database cannot store: 22021 (e.g. NUL in text), 22P05 (\u0000 in jsonb). */
const ENCODING_ERROR_CODES = new Set(['22021', '22P05']);

export interface DatabaseErrorDescription {
  code: string;
  /** The statement's verb and table, e.g. `insert users`: which query failed, without any value. */
  query: string | undefined;
  message: string;
}

interface DriverError {
  code: string;
  message: string;
}

function isDriverError(value: unknown): value is DriverError {
  if (!(value instanceof Error)) return false;
  const { code, severity } = value as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

/** `insert into "users" (...)` → `insert users`; `select ... from "sessions" ...` → `select sessions`. */
export function queryName(sql: string): string {
  const text = sql.trim().replace(/\s+/g, ' ');
  const verb = (/^\w+/.exec(text)?.[0] ?? 'query').toLowerCase();
  const table = /^(?:insert into|update|delete from)\s+"?([\w.]+)"?/i.exec(text)?.[1] ?? / from\s+"?([\w.]+)"?/i.exec(text)?.[1];
  return table ? `${verb} ${table}` : verb;
}

/** The database error inside `error` (drizzle's wrapper or the driver's own), or undefined for any other error. */
export function describeDatabaseError(error: unknown): DatabaseErrorDescription | undefined {
  let query: string | undefined;
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    const sql = (current as { query?: unknown }).query;
    if (typeof sql === 'string' && query === undefined) query = queryName(sql);
    if (isDriverError(current)) return { code: current.code, query, message: current.message };
  }
  return undefined;
}

export function isEncodingError(description: DatabaseErrorDescription): boolean {
  return ENCODING_ERROR_CODES.has(description.code);
}

/**
 * Pino's `err` serializer for the whole server: a database error is logged as its code, query name and message;
 * every other error as pino would (type, message, stack and own fields).
 */
export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function serializeError(error: Error, fallback: (error: Error) => SerializedError): SerializedError {
  const database = describeDatabaseError(error);
  // No stack either: its first line repeats drizzle's message, parameters included.
  if (database) return { type: 'DatabaseError', code: database.code, query: database.query, message: database.message, stack: '' };
  return fallback(error);
}
