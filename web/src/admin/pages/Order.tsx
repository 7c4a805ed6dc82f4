import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Order() {
  return <AdminPage title="Order">{null}</AdminPage>;
}
