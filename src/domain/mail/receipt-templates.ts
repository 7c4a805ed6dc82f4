import type { MailAttachment, MailMessage } from './mailer.js';
import { escapeHtml, type MailLang } from './templates.js';
import { EXTRA_METHOD, EXTRA_ORDER_COPY, EXTRA_TOPUP_COPY } from './receipt-copy.js';
import { dateTimeFormat, numberFormat } from '../../lib/intl.js';
import { INTL_LOCALES as INTL_LOCALE } from '../../lib/languages.js';

/**
 * Receipt mails (order completed, wallet top-up credited) in every UI language (German, French
 * and Spanish text in receipt-copy.ts). Pure: the caller loads the facts and the QR images;
 * everything shown is escaped here.
 */

export function formatMoney(minor: number, currency: string, lang: MailLang): string {
  return numberFormat(INTL_LOCALE[lang], { style: 'currency', currency }).format(minor / 100);
}

/** A day ("November 20, 2026"), in UTC: the date of an exchange rate. */
export function formatDay(at: Date, lang: MailLang): string {
  return dateTimeFormat(INTL_LOCALE[lang], { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

function formatDate(at: Date, lang: MailLang): string {
  const formatted = dateTimeFormat(INTL_LOCALE[lang], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at);
  return `${formatted} UTC`;
}

export interface ReceiptEsim {
  iccid: string;
  /** LPA activation string `LPA:1$<smdp>$<matchingId>`. */
  activationCode: string;
  smdpAddress: string;
  matchingId: string;
  iosInstallUrl: string;
  /** Public PNG of the QR code (the eSIM API's qrCodeUrl): the fallback when images are blocked. */
  qrCodeUrl: string;
  /** The hosted install page (`/install/<token>`): open it on the phone, or forward it. */
  installUrl: string;
  /** Inline PNG of the QR code; absent for a top-up (the eSIM is already installed). */
  qr?: { cid: string; png: Buffer };
}

export interface OrderReceiptInput {
  to: string;
  firstName: string;
  orderNumber: string;
  completedAt: Date;
  /** Plan title in the reader's language ("Türkiye · 1 GB · 7 gün"). */
  planTitle: string;
  quantity: number;
  amountCents: number;
  /**
   * The amount in the reader's display currency at the rate of the purchase, when that is not
   * USD (issue 30 T4: receipts state both), with the rate's date.
   */
  display?: { amount: string; rateDate: string | null };
  /** The receipt in the app (print, PDF): `/orders/<id>/receipt`. */
  receiptUrl?: string;
  paymentMethod: 'wallet' | 'card' | 'crypto';
  /** A top-up plan: data was added to an eSIM the customer already has. */
  isTopUp: boolean;
  esims: ReceiptEsim[];
  esimsUrl: string;
}

const METHOD: Record<MailLang, Record<OrderReceiptInput['paymentMethod'], string>> = {
  en: { wallet: 'Wallet balance', card: 'Card', crypto: 'Crypto' },
  tr: { wallet: 'Cüzdan bakiyesi', card: 'Kart', crypto: 'Kripto' },
  ...EXTRA_METHOD,
};

const ORDER_COPY = {
  en: {
    subject: (n: string, many: boolean) => `Your eSIM${many ? 's are' : ' is'} ready – order ${n}`,
    topUpSubject: (n: string) => `Data added to your eSIM – order ${n}`,
    hello: (name: string) => (name ? `Hi ${name},` : 'Hi,'),
    intro: (many: boolean) =>
      `Thank you for your order. Your eSIM${many ? 's are' : ' is'} ready to install: scan the QR code ` +
      'with the phone that will use it, or on an iPhone (iOS 17.4 or later) open the install link. ' +
      'Install before you travel; the plan starts when the eSIM first connects abroad.',
    topUpIntro: 'Thank you for your order. The data was added to your eSIM; nothing needs to be installed.',
    order: 'Order',
    date: 'Date',
    plan: 'Plan',
    quantity: 'Quantity',
    amount: 'Amount',
    inCurrency: 'In your currency',
    atRate: (amount: string, date: string | null) => (date ? `${amount} at the rate of ${date}` : amount),
    receipt: 'Receipt (print or PDF)',
    paidWith: 'Paid with',
    esim: 'eSIM',
    iccid: 'ICCID',
    lpa: 'Activation string (LPA)',
    manual: 'Manual entry: SM-DP+ address',
    matching: 'activation code',
    smdpLabel: 'SM-DP+ address',
    matchingLabel: 'Activation code',
    ios: 'Install on iPhone (one tap)',
    installPage: 'Install page (open it on the phone, or send it to whoever installs the eSIM)',
    installPageButton: 'Open the install page',
    qrAlt: (iccid: string) => `QR code of the eSIM ${iccid}`,
    qrLink: 'QR code not showing? Open it here',
    view: 'See your eSIMs, usage and install details',
    footer:
      'Keep this email until the eSIM is installed: most eSIMs can be installed only once. ' +
      'Questions? Write to us from the Support page of the app.',
  },
  tr: {
    subject: (n: string, many: boolean) => `eSIM${many ? "'leriniz" : "'iniz"} hazır – sipariş ${n}`,
    topUpSubject: (n: string) => `eSIM'inize veri eklendi – sipariş ${n}`,
    hello: (name: string) => (name ? `Merhaba ${name},` : 'Merhaba,'),
    intro: (many: boolean) =>
      `Siparişiniz için teşekkürler. eSIM${many ? "'leriniz" : "'iniz"} kuruluma hazır: QR kodunu ` +
      'eSIM’i kullanacak telefonla okutun ya da iPhone’da (iOS 17.4 ve üzeri) kurulum bağlantısını ' +
      'açın. Yolculuktan önce kurun; paket, eSIM yurt dışında ilk kez bağlandığında başlar.',
    topUpIntro: 'Siparişiniz için teşekkürler. Veri eSIM’inize eklendi; yeniden kurulum gerekmez.',
    order: 'Sipariş',
    date: 'Tarih',
    plan: 'Paket',
    quantity: 'Adet',
    amount: 'Tutar',
    inCurrency: 'Sizin para biriminizde',
    atRate: (amount: string, date: string | null) => (date ? `${amount} (${date} tarihli kurla)` : amount),
    receipt: 'Makbuz (yazdırma veya PDF)',
    paidWith: 'Ödeme',
    esim: 'eSIM',
    iccid: 'ICCID',
    lpa: 'Etkinleştirme dizesi (LPA)',
    manual: 'Elle kurulum: SM-DP+ adresi',
    matching: 'etkinleştirme kodu',
    smdpLabel: 'SM-DP+ adresi',
    matchingLabel: 'Etkinleştirme kodu',
    ios: 'iPhone’a tek dokunuşla kur',
    installPage: 'Kurulum sayfası (telefonda açın ya da eSIM’i kuracak kişiye gönderin)',
    installPageButton: 'Kurulum sayfasını açın',
    qrAlt: (iccid: string) => `${iccid} eSIM’inin QR kodu`,
    qrLink: 'QR kodu görünmüyor mu? Buradan açın',
    view: 'eSIM’lerinizi, kullanımınızı ve kurulum bilgilerini görün',
    footer:
      'eSIM kurulana kadar bu e-postayı saklayın: çoğu eSIM yalnızca bir kez kurulabilir. ' +
      'Sorunuz mu var? Uygulamadaki Destek sayfasından bize yazın.',
  },
  ...EXTRA_ORDER_COPY,
};

const P = 'margin:0 0 12px';
const TD = 'padding:2px 12px 2px 0;vertical-align:top';

function detailRows(rows: Array<[string, string]>): string {
  return (
    `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">` +
    rows
      .map(
        ([k, v]) =>
          `<tr><td style="${TD};color:#555">${escapeHtml(k)}</td><td style="${TD}">${escapeHtml(v)}</td></tr>`,
      )
      .join('') +
    `</table>`
  );
}

function link(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

function layout(body: string[]): string {
  return [
    '<!doctype html>',
    '<html><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#111;max-width:600px;margin:0 auto;padding:16px">',
    ...body,
    '</body></html>',
  ].join('\n');
}

export function orderReceiptMail(lang: MailLang, input: OrderReceiptInput): MailMessage {
  const copy = ORDER_COPY[lang];
  const many = input.esims.length > 1;
  const subject = input.isTopUp
    ? copy.topUpSubject(input.orderNumber)
    : copy.subject(input.orderNumber, many);
  const intro = input.isTopUp ? copy.topUpIntro : copy.intro(many);
  const details: Array<[string, string]> = [
    [copy.order, input.orderNumber],
    [copy.date, formatDate(input.completedAt, lang)],
    [copy.plan, input.planTitle],
    ...(input.quantity > 1 ? [[copy.quantity, String(input.quantity)] as [string, string]] : []),
    [copy.amount, formatMoney(input.amountCents, 'USD', lang)],
    ...(input.display
      ? [[copy.inCurrency, copy.atRate(input.display.amount, input.display.rateDate)] as [string, string]]
      : []),
    [copy.paidWith, METHOD[lang][input.paymentMethod]],
  ];

  const text: string[] = [copy.hello(input.firstName), '', intro, ''];
  for (const [k, v] of details) text.push(`${k}: ${v}`);
  const html: string[] = [
    `<p style="${P}">${escapeHtml(copy.hello(input.firstName))}</p>`,
    `<p style="${P}">${escapeHtml(intro)}</p>`,
    detailRows(details),
  ];
  const attachments: MailAttachment[] = [];

  input.esims.forEach((esim, index) => {
    const heading = many ? `${copy.esim} ${index + 1}/${input.esims.length}` : copy.esim;
    text.push('', `— ${heading} —`, `${copy.iccid}: ${esim.iccid}`);
    html.push(`<h2 style="font-size:17px;margin:24px 0 8px">${escapeHtml(heading)}</h2>`);
    if (input.isTopUp || !esim.qr) {
      html.push(detailRows([[copy.iccid, esim.iccid]]));
      return;
    }
    text.push(
      `${copy.installPage}: ${esim.installUrl}`,
      `${copy.lpa}: ${esim.activationCode}`,
      `${copy.manual} ${esim.smdpAddress}, ${copy.matching} ${esim.matchingId}`,
      `${copy.ios}: ${esim.iosInstallUrl}`,
      `QR: ${esim.qrCodeUrl}`,
    );
    attachments.push({
      filename: `esim-${esim.iccid}.png`,
      contentType: 'image/png',
      content: esim.qr.png,
      cid: esim.qr.cid,
    });
    html.push(
      // The page first: on the phone it leads straight to the steps and codes for that phone.
      `<p style="${P}"><a href="${escapeHtml(esim.installUrl)}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(copy.installPageButton)}</a></p>`,
      `<p style="${P};font-size:13px;color:#555">${escapeHtml(copy.installPage)}</p>`,
      `<p style="${P}"><img src="cid:${escapeHtml(esim.qr.cid)}" width="220" height="220" alt="${escapeHtml(copy.qrAlt(esim.iccid))}" style="display:block;border:1px solid #ddd"></p>`,
      `<p style="${P};font-size:13px">${link(esim.qrCodeUrl, copy.qrLink)}</p>`,
      `<p style="${P}"><a href="${escapeHtml(esim.iosInstallUrl)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(copy.ios)}</a></p>`,
      detailRows([
        [copy.iccid, esim.iccid],
        [copy.lpa, esim.activationCode],
        [copy.smdpLabel, esim.smdpAddress],
        [copy.matchingLabel, esim.matchingId],
      ]),
    );
  });

  text.push('', `${copy.view}: ${input.esimsUrl}`);
  if (input.receiptUrl) text.push(`${copy.receipt}: ${input.receiptUrl}`);
  text.push('', copy.footer);
  html.push(
    `<p style="${P}">${link(input.esimsUrl, copy.view)}</p>`,
    ...(input.receiptUrl ? [`<p style="${P}">${link(input.receiptUrl, copy.receipt)}</p>`] : []),
    `<p style="${P};font-size:13px;color:#555">${escapeHtml(copy.footer)}</p>`,
  );
  return { to: input.to, subject, text: text.join('\n'), html: layout(html), attachments };
}

export interface TopUpReceiptInput {
  to: string;
  firstName: string;
  paymentId: string;
  paidAt: Date;
  method: 'card' | 'crypto';
  /** USD cents credited to the wallet. */
  creditedCents: number;
  /** What the payer was charged, in minor units of `chargedCurrency`. */
  chargedMinor: number;
  chargedCurrency: string;
  /** Wallet balance right after the credit (the ledger row's balance), when known. */
  balanceAfterCents: number | null;
  walletUrl: string;
}

const TOPUP_COPY = {
  en: {
    subject: (amount: string) => `Wallet top-up received – ${amount}`,
    intro: (amount: string) => `We received your payment and added ${amount} to your wallet.`,
    credited: 'Added to wallet',
    charged: 'Charged',
    method: 'Paid with',
    date: 'Date',
    balance: 'New balance',
    reference: 'Reference',
    view: 'See your wallet and transactions',
    methods: { card: 'Card', crypto: 'Crypto' },
  },
  tr: {
    subject: (amount: string) => `Cüzdan yüklemesi alındı – ${amount}`,
    intro: (amount: string) => `Ödemenizi aldık ve cüzdanınıza ${amount} ekledik.`,
    credited: 'Cüzdana eklenen',
    charged: 'Tahsil edilen',
    method: 'Ödeme',
    date: 'Tarih',
    balance: 'Yeni bakiye',
    reference: 'Referans',
    view: 'Cüzdanınızı ve işlemlerinizi görün',
    methods: { card: 'Kart', crypto: 'Kripto' },
  },
  ...EXTRA_TOPUP_COPY,
};

export function topUpReceiptMail(lang: MailLang, input: TopUpReceiptInput): MailMessage {
  const copy = TOPUP_COPY[lang];
  const credited = formatMoney(input.creditedCents, 'USD', lang);
  const details: Array<[string, string]> = [[copy.credited, credited]];
  if (input.chargedCurrency !== 'USD') {
    details.push([copy.charged, formatMoney(input.chargedMinor, input.chargedCurrency, lang)]);
  }
  details.push(
    [copy.method, copy.methods[input.method]],
    [copy.date, formatDate(input.paidAt, lang)],
    ...(input.balanceAfterCents !== null
      ? [[copy.balance, formatMoney(input.balanceAfterCents, 'USD', lang)] as [string, string]]
      : []),
    [copy.reference, input.paymentId],
  );
  const hello = ORDER_COPY[lang].hello(input.firstName);
  const text = [hello, '', copy.intro(credited), '', ...details.map(([k, v]) => `${k}: ${v}`)];
  text.push('', `${copy.view}: ${input.walletUrl}`);
  const html = layout([
    `<p style="${P}">${escapeHtml(hello)}</p>`,
    `<p style="${P}">${escapeHtml(copy.intro(credited))}</p>`,
    detailRows(details),
    `<p style="${P}">${link(input.walletUrl, copy.view)}</p>`,
  ]);
  return { to: input.to, subject: copy.subject(credited), text: text.join('\n'), html };
}
