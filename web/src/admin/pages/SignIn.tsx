/** Placeholder: built in issue 33 O1. */
export default function SignIn() {
  return (
    <main className="admin-auth">
      <h1>SignIn</h1>
    </main>
  );
}
