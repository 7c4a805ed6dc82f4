import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Reconcile() {
  return <AdminPage title="Reconcile">{null}</AdminPage>;
}
