// CSV as spreadsheet programs open it cleanly: UTF-8 with a byte-order mark (Excel otherwise guesses a legacy code
// page), CRLF line ends and RFC 4180 quoting.
//
// Formula injection (CWE-1236): a text cell that starts with =, +, -, @, a tab or a carriage return is run as a
// formula by Excel, LibreOffice and Google Sheets, so such a cell is prefixed with a single quote, which those
// programs show as text. Only text cells are escaped. Numbers are written by `csvNumber` from JavaScript numbers
// (never from user text), so a negative value stays the plain numeric cell `-12.5`: a spreadsheet reads it as the
// number -12.5, not as a formula, and sums and charts keep working on it.

/** The UTF-8 byte-order mark, written once before the header row. */
export const CSV_BOM = '\uFEFF';
const CSV_LINE_END = '\r\n';

const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** A text cell: formula-escaped, then quoted when it holds a comma, a quote or a line break. Null is empty. */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const escaped = FORMULA_TRIGGERS.has(value[0]!) ? `'${value}` : value;
  return /[",\r\n]/.test(escaped) ? `"${escaped.replaceAll('"', '""')}"` : escaped;
}

/**
 * A numeric cell. Non-finite values (PostgreSQL doubles may hold NaN or Infinity) are left empty rather than
 * written as words a spreadsheet would take for text.
 */
export function csvNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return String(value);
}

/** One line, already-formatted cells joined with commas and ended with CRLF. */
export function csvLine(cells: readonly string[]): string {
  return cells.join(',') + CSV_LINE_END;
}
