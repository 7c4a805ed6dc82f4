import { describe, expect, it } from 'vitest';
import {
  isRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  qrSvg,
  recoveryCodeHash,
  totpCode,
  totpStep,
} from '../../../src/domain/operators/second-factor.js';

// RFC 6238 appendix B: the SHA1 key is the ASCII of "12345678901234567890".
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238)', () => {
  it('computes the RFC test vectors (last 6 of the 8 digits)', () => {
    expect(totpCode(RFC_SECRET, new Date(59_000))).toBe('287082');
    expect(totpCode(RFC_SECRET, new Date(1_111_111_109_000))).toBe('081804');
    expect(totpCode(RFC_SECRET, new Date(2_000_000_000_000))).toBe('279037');
  });

  it('accepts the code of this step and of one step either side, with the step it belongs to', () => {
    const secret = newTotpSecret();
    const now = new Date(1_700_000_015_000);
    const step = Math.floor(now.getTime() / 30_000);
    expect(totpStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(totpStep(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
  });

  it('refuses codes two steps away, malformed codes and another secret’s code', () => {
    const secret = newTotpSecret();
    const now = new Date(1_700_000_015_000);
    expect(totpStep(secret, totpCode(secret, new Date(now.getTime() - 60_000)), now)).toBeNull();
    expect(totpStep(secret, totpCode(secret, new Date(now.getTime() + 60_000)), now)).toBeNull();
    expect(totpStep(secret, '12345', now)).toBeNull();
    expect(totpStep(secret, 'abcdef', now)).toBeNull();
    expect(totpStep(newTotpSecret(), totpCode(secret, now), now)).toBeNull();
  });

  it('makes a 160-bit base32 secret, an otpauth URI and an SVG QR code', async () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = otpauthUri(secret, 'a@b.example', 'Roam eSIM');
    expect(uri).toContain('otpauth://totp/');
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('algorithm=SHA1&digits=6&period=30');
    expect(uri).toContain('issuer=Roam%20eSIM');
    expect(await qrSvg(uri)).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });
});

describe('recovery codes', () => {
  it('makes 10 distinct xxxx-xxxx codes of an unambiguous alphabet', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
      expect(code).not.toMatch(/[01ilo]/);
      expect(isRecoveryCode(code)).toBe(true);
    }
    expect(isRecoveryCode('123456')).toBe(false);
  });

  it('hashes a code per operator, whatever its case or dash', () => {
    const hash = recoveryCodeHash('opr_a', 'abcd-efgh');
    expect(recoveryCodeHash('opr_a', ' ABCDEFGH ')).toBe(hash);
    expect(recoveryCodeHash('opr_b', 'abcd-efgh')).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
