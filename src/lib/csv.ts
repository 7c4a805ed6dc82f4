/**
 * CSV (RFC 4180) for the downloads of the partner dashboard: comma-separated, CRLF line ends,
 * fields quoted when they hold a comma, quote or line break. A text field that a spreadsheet
 * would run as a formula (=, +, -, @ first) gets a leading apostrophe (OWASP "CSV injection");
 * numbers are written as numbers.
 */
export type CsvValue = string | number | boolean | null | undefined;

function field(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(field).join(',')}\r\n`;
}

export function csv(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return csvLine(header) + rows.map(csvLine).join('');
}

/** 1234 → "12.34", -5 → "-0.05": exact, always two decimals (what accountants expect in a sheet). */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
