import type { Locale } from '../catalog/countries.js';

/** The words of a receipt document (PDF), per language; a language without its own gets English. */
export interface ReceiptLabels {
  receipt: string;
  number: string;
  date: string;
  billedTo: string;
  item: string;
  quantity: string;
  amount: string;
  paymentMethod: string;
  method: Record<'wallet' | 'card' | 'crypto', string>;
  total: string;
  charged: string;
  inCurrency: (currency: string) => string;
  rate: (rate: string, date: string) => string;
  order: string;
  topUp: string;
  refunded: string;
  footer: string;
}

const en: ReceiptLabels = {
  receipt: 'Receipt',
  number: 'Receipt number',
  date: 'Date',
  billedTo: 'Billed to',
  item: 'Item',
  quantity: 'Qty',
  amount: 'Amount',
  paymentMethod: 'Payment method',
  method: { wallet: 'Wallet balance', card: 'Card', crypto: 'Cryptocurrency' },
  total: 'Total',
  charged: 'Charged in US dollars',
  inCurrency: (c) => `In ${c}`,
  rate: (r, d) => `at 1 USD = ${r}, rate of ${d}`,
  order: 'Order',
  topUp: 'Wallet top-up',
  refunded: 'Refunded',
  footer: 'Amounts are charged in US dollars; the other currency is shown for your information.',
};

const tr: ReceiptLabels = {
  receipt: 'Makbuz',
  number: 'Makbuz numarası',
  date: 'Tarih',
  billedTo: 'Alıcı',
  item: 'Ürün',
  quantity: 'Adet',
  amount: 'Tutar',
  paymentMethod: 'Ödeme yöntemi',
  method: { wallet: 'Cüzdan bakiyesi', card: 'Kart', crypto: 'Kripto para' },
  total: 'Toplam',
  charged: 'ABD doları olarak tahsil edildi',
  inCurrency: (c) => `${c} olarak`,
  rate: (r, d) => `1 USD = ${r}, ${d} tarihli kur`,
  order: 'Sipariş',
  topUp: 'Cüzdana bakiye yükleme',
  refunded: 'İade edildi',
  footer: 'Tutarlar ABD doları olarak tahsil edilir; diğer para birimi bilgi amaçlıdır.',
};

const de: ReceiptLabels = {
  receipt: 'Beleg',
  number: 'Belegnummer',
  date: 'Datum',
  billedTo: 'Rechnungsempfänger',
  item: 'Artikel',
  quantity: 'Menge',
  amount: 'Betrag',
  paymentMethod: 'Zahlungsart',
  method: { wallet: 'Guthaben', card: 'Karte', crypto: 'Kryptowährung' },
  total: 'Summe',
  charged: 'In US-Dollar belastet',
  inCurrency: (c) => `In ${c}`,
  rate: (r, d) => `zu 1 USD = ${r}, Kurs vom ${d}`,
  order: 'Bestellung',
  topUp: 'Guthaben aufgeladen',
  refunded: 'Erstattet',
  footer: 'Belastet wird in US-Dollar; die andere Währung dient nur zur Information.',
};

const fr: ReceiptLabels = {
  receipt: 'Reçu',
  number: 'Numéro de reçu',
  date: 'Date',
  billedTo: 'Facturé à',
  item: 'Article',
  quantity: 'Qté',
  amount: 'Montant',
  paymentMethod: 'Moyen de paiement',
  method: { wallet: 'Solde du portefeuille', card: 'Carte', crypto: 'Cryptomonnaie' },
  total: 'Total',
  charged: 'Débité en dollars US',
  inCurrency: (c) => `En ${c}`,
  rate: (r, d) => `à 1 USD = ${r}, taux du ${d}`,
  order: 'Commande',
  topUp: 'Rechargement du portefeuille',
  refunded: 'Remboursé',
  footer: "Les montants sont débités en dollars US ; l'autre devise est indiquée à titre d'information.",
};

const es: ReceiptLabels = {
  receipt: 'Recibo',
  number: 'Número de recibo',
  date: 'Fecha',
  billedTo: 'Facturado a',
  item: 'Artículo',
  quantity: 'Cant.',
  amount: 'Importe',
  paymentMethod: 'Método de pago',
  method: { wallet: 'Saldo del monedero', card: 'Tarjeta', crypto: 'Criptomoneda' },
  total: 'Total',
  charged: 'Cobrado en dólares estadounidenses',
  inCurrency: (c) => `En ${c}`,
  rate: (r, d) => `a 1 USD = ${r}, tipo del ${d}`,
  order: 'Pedido',
  topUp: 'Recarga del monedero',
  refunded: 'Reembolsado',
  footer: 'Los importes se cobran en dólares estadounidenses; la otra moneda es informativa.',
};

const LABELS: Partial<Record<Locale, ReceiptLabels>> = { en, tr, de, fr, es };

export function receiptLabels(locale: Locale): ReceiptLabels {
  return LABELS[locale] ?? en;
}
