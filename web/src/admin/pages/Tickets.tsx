import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Tickets() {
  return <AdminPage title="Tickets">{null}</AdminPage>;
}
