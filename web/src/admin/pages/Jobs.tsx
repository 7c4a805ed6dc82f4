import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Jobs() {
  return <AdminPage title="Jobs">{null}</AdminPage>;
}
