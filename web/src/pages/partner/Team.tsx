import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function Team() {
  return (
    <PartnerShell title="pc.tab.team" permission="members.read">
      {() => null}
    </PartnerShell>
  );
}
