import { hasSecrets, redactSecrets } from '../mail/redact.js';
import { plural, type OrderFacts, type TimelineItem } from './order-timeline.types.js';

/**
 * The messages about an order in its timeline: mails and pushes (bodies redacted unless the
 * reader holds `secrets.read`, see ../mail/redact.ts) and partner events with each webhook
 * delivery attempt.
 */

export function mailItems({ mails }: OrderFacts, reveal: boolean): TimelineItem[] {
  const status = { recorded: 'info', sent: 'ok', failed: 'failed' } as const;
  return mails.map((m) => {
    const redacted = !reveal && hasSecrets(m.text);
    return {
      at: m.sentAt ?? m.createdAt,
      kind: 'mail' as const,
      title: `Mail to ${m.to}: ${m.subject}`,
      detail: redacted ? redactSecrets(m.text) : m.text,
      status: status[m.status],
      ref: m.id,
      ...(redacted ? { redacted: true as const } : {}),
    };
  });
}

export function pushItems({ pushes }: OrderFacts, reveal: boolean): TimelineItem[] {
  const status = {
    recorded: 'info',
    pending: 'pending',
    sent: 'ok',
    failed: 'failed',
    gone: 'failed',
    skipped: 'info',
  } as const;
  return pushes.map((p) => {
    const body = p.error ? `${p.body} (${p.error})` : p.body;
    const redacted = !reveal && hasSecrets(body);
    return {
      at: p.sentAt ?? p.createdAt,
      kind: 'push' as const,
      title: `Push to ${p.platform} device: ${p.title} (${p.status})`,
      detail: redacted ? redactSecrets(body) : body,
      status: status[p.status],
      ref: p.id,
      ...(redacted ? { redacted: true as const } : {}),
    };
  });
}

export function webhookItems({ events }: OrderFacts): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (const event of events) {
    items.push({
      at: event.createdAt,
      kind: 'webhook',
      title: `Partner event ${event.type}`,
      detail: event.deliveries.length
        ? `To ${plural(event.deliveries.length, 'webhook endpoint')}`
        : 'No webhook endpoint subscribed; the partner can read it from GET /events',
      status: 'info',
      ref: event.id,
    });
    for (const d of event.deliveries) {
      if (d.attempts.length === 0)
        items.push({
          at: d.createdAt,
          kind: 'webhook',
          title: `Webhook ${event.type} → ${d.endpointUrl}: queued`,
          status: d.status === 'failed' ? 'failed' : 'pending',
          ref: d.id,
        });
      for (const a of d.attempts) {
        const ok = a.responseStatus !== null && a.responseStatus >= 200 && a.responseStatus < 300;
        items.push({
          at: a.startedAt,
          kind: 'webhook',
          title: `Webhook ${event.type} → ${d.endpointUrl}: ${a.responseStatus !== null ? `HTTP ${a.responseStatus}` : 'no answer'}`,
          detail: `Attempt ${a.attempt}${a.manual ? ' (resent by the partner)' : ''}, ${a.durationMs} ms${a.error ? `: ${a.error}` : ''}`,
          status: ok ? 'ok' : 'failed',
          ref: d.id,
        });
      }
    }
  }
  return items;
}
