import { AdminPage } from '../AdminShell';

/** Placeholder: built in issue 33 O2. */
export default function Search() {
  return <AdminPage title="Search">{null}</AdminPage>;
}
