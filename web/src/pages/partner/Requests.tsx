import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function Requests() {
  return (
    <PartnerShell title="pc.tab.requests" permission="requests.read">
      {() => null}
    </PartnerShell>
  );
}
