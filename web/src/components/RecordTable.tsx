import type { ReactNode } from 'react';

export interface RecordColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned in the table (amounts). */
  numeric?: boolean;
  /**
   * Where the value goes on a phone's card: its heading (`title`), beside it (`aside`: a status
   * or an amount), or a labelled field below (default).
   */
  card?: 'title' | 'aside' | 'field';
}

/**
 * Rows as a table on wide screens and as stacked cards on phones (issue 30 T7: no wide table at
 * 390 px). Both are rendered and CSS shows one (`.records-table` / `.record-cards`, breakpoint in
 * styles.css), so there is no layout jump on load or resize; the hidden one is display:none, out
 * of the accessibility tree and the tab order.
 */
export function RecordTable<T>({
  rows,
  columns,
  caption,
  rowKey,
  testId,
}: {
  rows: readonly T[];
  columns: readonly RecordColumn<T>[];
  caption: string;
  rowKey: (row: T) => string;
  /** data-testid of each table row and each card. */
  testId?: string;
}) {
  const place = (c: RecordColumn<T>) => c.card ?? 'field';
  const title = columns.filter((c) => place(c) === 'title');
  const aside = columns.filter((c) => place(c) === 'aside');
  const fields = columns.filter((c) => place(c) === 'field');
  return (
    <>
      <div className="table-wrap records-table">
        <table className="table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={c.numeric ? 'num' : undefined}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)} data-testid={testId}>
                {columns.map((c) => (
                  <td key={c.header} className={c.numeric ? 'num' : undefined}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="record-cards" aria-label={caption}>
        {rows.map((row) => (
          <li key={rowKey(row)} className="record-card" data-testid={testId ? `${testId}-card` : undefined}>
            <div className="record-card-head">
              <span className="record-card-title">
                {title.map((c) => (
                  <span key={c.header}>{c.cell(row)}</span>
                ))}
              </span>
              {aside.map((c) => (
                <span key={c.header} className="record-card-aside">
                  {c.cell(row)}
                </span>
              ))}
            </div>
            {fields.length > 0 ? (
              <dl className="record-fields">
                {fields.map((c) => (
                  <div key={c.header}>
                    <dt>{c.header}</dt>
                    <dd>{c.cell(row)}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
