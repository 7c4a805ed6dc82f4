import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Overview() {
  return <AdminPage title="Overview">{null}</AdminPage>;
}
