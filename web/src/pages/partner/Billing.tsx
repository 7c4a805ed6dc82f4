import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function Billing() {
  return (
    <PartnerShell title="pc.tab.billing" permission="statements.read">
      {() => null}
    </PartnerShell>
  );
}
