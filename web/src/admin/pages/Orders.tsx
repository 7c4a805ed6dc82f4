import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Orders() {
  return <AdminPage title="Orders">{null}</AdminPage>;
}
