import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function Webhooks() {
  return (
    <PartnerShell title="pc.tab.webhooks" permission="webhooks.read">
      {() => null}
    </PartnerShell>
  );
}
