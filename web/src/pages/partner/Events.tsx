import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function Events() {
  return (
    <PartnerShell title="pc.tab.events" permission="events.read">
      {() => null}
    </PartnerShell>
  );
}
