import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Outboxes() {
  return <AdminPage title="Outboxes">{null}</AdminPage>;
}
