/** Placeholder: built in issue 33 O1. */
export default function Enrol() {
  return (
    <main className="admin-auth">
      <h1>Enrol</h1>
    </main>
  );
}
