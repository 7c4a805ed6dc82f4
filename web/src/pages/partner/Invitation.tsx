/** Placeholder: built by the team change (issue 32 C4). */
export default function Invitation() {
  return <div className="container" />;
}
