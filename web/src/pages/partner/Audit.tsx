import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function Audit() {
  return (
    <PartnerShell title="pc.tab.audit" permission="audit.read">
      {() => null}
    </PartnerShell>
  );
}
