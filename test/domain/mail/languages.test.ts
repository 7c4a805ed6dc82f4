import { describe, expect, it } from 'vitest';
import { orderReceiptMail, topUpReceiptMail } from '../../../src/domain/mail/receipt-templates.js';
import { mailLang, passwordResetMail } from '../../../src/domain/mail/templates.js';
import { guestReplyMail, mailLanguage, staffReplyMail } from '../../../src/domain/support/templates.js';
import { UI_LANGUAGES } from '../../../src/lib/languages.js';

/** Issue 30 T11: mail in every UI language, in the reader's own formats. */
describe('mail languages', () => {
  it('writes in the first language we speak, else English (support: the account default, Turkish)', () => {
    expect(mailLang('de-AT')).toBe('de');
    expect(mailLang('it', 'fr')).toBe('fr');
    expect(mailLang('ja', null)).toBe('en');
    expect(mailLanguage('es')).toBe('es');
    expect(mailLanguage(null)).toBe('tr');
    expect(mailLanguage('pt')).toBe('en');
  });

  it('sends the password reset in German, formally, with the link and code intact', () => {
    const mail = passwordResetMail('de', 'anna@example.de', {
      publicBaseUrl: 'https://roam.example',
      token: 'tok_123',
    });
    expect(mail.subject).toBe('Passwort zurücksetzen');
    expect(mail.text).toContain('Öffnen Sie den folgenden Link');
    expect(mail.text).toContain('https://roam.example/reset-password?token=tok_123');
    expect(mail.html).toContain('<code>tok_123</code>');
  });

  it('words the order receipt in French with French amounts and dates', () => {
    const mail = orderReceiptMail('fr', {
      to: 'luc@example.fr',
      firstName: 'Luc',
      orderNumber: 'ORD-42',
      completedAt: new Date('2026-11-27T09:30:00Z'),
      planTitle: 'Turquie · 3 Go · 15 jours',
      quantity: 1,
      amountCents: 123456,
      paymentMethod: 'card',
      isTopUp: false,
      esims: [
        {
          iccid: '8990000000000000001',
          activationCode: 'LPA:1$smdp.example$MATCH1',
          smdpAddress: 'smdp.example',
          matchingId: 'MATCH1',
          iosInstallUrl: 'https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=x',
          qrCodeUrl: 'https://roam.example/qr/x.png',
          installUrl: 'https://roam.example/install/tok',
          qr: { cid: 'qr1', png: Buffer.from('png') },
        },
      ],
      esimsUrl: 'https://roam.example/esims',
    });
    expect(mail.subject).toBe('Votre eSIM est prête – commande ORD-42');
    expect(mail.text).toContain('Bonjour Luc,');
    expect(mail.text).toContain('Payé par: Carte');
    // French grouping and decimal comma, the date in French.
    expect(mail.text).toMatch(/Montant: 1\s234,56\s\$US/);
    expect(mail.text).toContain('27 novembre 2026');
    expect(mail.html).toContain('Adresse SM-DP+');
    expect(mail.html).toContain('Ouvrir la page d’installation');
  });

  it('words the top-up receipt and a support reply in Spanish', () => {
    const topUp = topUpReceiptMail('es', {
      to: 'ana@example.es',
      firstName: 'Ana',
      paymentId: 'pay_1',
      paidAt: new Date('2026-11-27T09:30:00Z'),
      method: 'card',
      creditedCents: 2500,
      chargedMinor: 2300,
      chargedCurrency: 'EUR',
      balanceAfterCents: 4000,
      walletUrl: 'https://roam.example/wallet',
    });
    expect(topUp.subject).toMatch(/^Recarga del monedero recibida – 25,00\sUS\$$/);
    expect(topUp.text).toContain('Hola, Ana:');
    expect(topUp.text).toMatch(/Cobrado: 23,00\s€/);

    const reply = staffReplyMail({
      to: 'ana@example.es',
      locale: 'es',
      ticketId: 't1',
      subject: 'QR',
      reply: 'Hola',
    });
    expect(reply.subject).toBe('Respuesta a su solicitud de soporte: QR');
    const guest = guestReplyMail({
      to: 'g@example.de',
      locale: 'de',
      name: 'Jonas',
      ticketId: 't2',
      subject: 'Frage',
      reply: 'Antwort',
      link: 'https://roam.example/support/guest/abc',
    });
    expect(guest.text).toContain('Guten Tag Jonas,');
    expect(guest.html).toContain('href="https://roam.example/support/guest/abc"');
  });

  it('has a subject of its own in every UI language', () => {
    const subjects = UI_LANGUAGES.map(
      (lang) => passwordResetMail(lang, 'a@b.co', { publicBaseUrl: 'https://x', token: 't' }).subject,
    );
    expect(new Set(subjects).size).toBe(UI_LANGUAGES.length);
  });
});
