import { PartnerShell } from '../../partner/PartnerShell';

/** Placeholder: built by its area's change (issue 32). */
export default function Keys() {
  return (
    <PartnerShell title="pc.tab.keys" permission="keys.read">
      {() => null}
    </PartnerShell>
  );
}
