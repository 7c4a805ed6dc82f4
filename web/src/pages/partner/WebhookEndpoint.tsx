import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function WebhookEndpoint() {
  return (
    <PartnerShell title="pc.tab.webhooks" permission="webhooks.read">
      {() => null}
    </PartnerShell>
  );
}
