import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Catalog() {
  return <AdminPage title="Catalog">{null}</AdminPage>;
}
