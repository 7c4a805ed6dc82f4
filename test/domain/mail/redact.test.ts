import { describe, expect, it } from 'vitest';
import { hasSecrets, redactSecrets } from '../../../src/domain/mail/redact.js';
import { newId } from '../../../src/lib/ids.js';
import { randomToken } from '../../../src/lib/crypto.js';

describe('redactSecrets', () => {
  it('hides every credential the service mails, inside links or on their own', () => {
    const reset = randomToken(32);
    const install = randomToken(32);
    const qr = randomToken(24);
    const text = [
      `Reset: https://shop.example/reset-password?token=${reset}`,
      `Or enter this code in the app:`,
      reset,
      `Enrol: https://shop.example/admin/enrol#${randomToken(32)}`,
      `Thread: https://shop.example/support/guest/${randomToken()}`,
      `Install: https://shop.example/install/${install}`,
      `QR: https://shop.example/api/v1/esims/${qr}/qr.png`,
      'LPA:1$rsp.example.com$2A90CBEA79982CE1242EBB197104F157',
    ].join('\n');
    expect(hasSecrets(text)).toBe(true);
    const shown = redactSecrets(text);
    for (const secret of [reset, install, qr, '2A90CBEA79982CE1242EBB197104F157'])
      expect(shown).not.toContain(secret);
    expect(shown).toContain('https://shop.example/reset-password?token=[redacted]');
    expect(shown).toContain('https://shop.example/admin/enrol#[redacted]');
    expect(shown).toContain('https://shop.example/install/[redacted]');
  });

  it('keeps ids, ICCIDs, order numbers and words', () => {
    const orderId = newId('ord');
    const text =
      `Order SVC-261127-WGW4Z8EH (${orderId}), ICCID 89901473857681051763: ` +
      `https://shop.example/orders/${orderId}/receipt https://esimsetup.apple.com/esim_qrcode_provisioning`;
    expect(hasSecrets(text)).toBe(false);
    expect(redactSecrets(text)).toBe(text);
  });
});
