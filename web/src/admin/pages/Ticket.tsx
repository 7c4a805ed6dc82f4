import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Ticket() {
  return <AdminPage title="Ticket">{null}</AdminPage>;
}
