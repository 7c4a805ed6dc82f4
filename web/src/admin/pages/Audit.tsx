import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Audit() {
  return <AdminPage title="Audit">{null}</AdminPage>;
}
