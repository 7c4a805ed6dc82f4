import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Operators() {
  return <AdminPage title="Operators">{null}</AdminPage>;
}
