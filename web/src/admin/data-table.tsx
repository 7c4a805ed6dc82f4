import type { ReactNode } from 'react';
import './account.css';

/**
 * A console table whose rows turn into small "label: value" cards on a phone (account.css): each
 * cell names its column in `data-label`. `numeric` columns are right-aligned on a wide screen.
 */
export function Table({
  head,
  numeric = [],
  children,
}: {
  head: string[];
  numeric?: string[];
  children: ReactNode;
}) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table account-table">
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className={numeric.includes(h) ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
