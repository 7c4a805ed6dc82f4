import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Account() {
  return <AdminPage title="Account">{null}</AdminPage>;
}
