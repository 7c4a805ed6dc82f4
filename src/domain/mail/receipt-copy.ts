/**
 * The receipt mails' text in German, French and Spanish (English and Turkish sit beside the
 * templates in receipt-templates.ts). Formal register, as a shop writes to its customers.
 */

export type ExtraLang = 'de' | 'fr' | 'es';
type PaymentMethod = 'wallet' | 'card' | 'crypto';

export interface OrderCopy {
  subject: (n: string, many: boolean) => string;
  topUpSubject: (n: string) => string;
  hello: (name: string) => string;
  intro: (many: boolean) => string;
  topUpIntro: string;
  order: string;
  date: string;
  plan: string;
  quantity: string;
  amount: string;
  /** Beside the USD amount when the account's currency is another (issue 30 T4). */
  inCurrency: string;
  atRate: (amount: string, date: string | null) => string;
  /** The link to the in-app receipt (issue 30 T9). */
  receipt: string;
  paidWith: string;
  esim: string;
  iccid: string;
  lpa: string;
  manual: string;
  matching: string;
  smdpLabel: string;
  matchingLabel: string;
  ios: string;
  installPage: string;
  installPageButton: string;
  qrAlt: (iccid: string) => string;
  qrLink: string;
  view: string;
  footer: string;
}

export interface TopUpCopy {
  subject: (amount: string) => string;
  intro: (amount: string) => string;
  credited: string;
  charged: string;
  method: string;
  date: string;
  balance: string;
  reference: string;
  view: string;
  methods: { card: string; crypto: string };
}

export const EXTRA_METHOD: Record<ExtraLang, Record<PaymentMethod, string>> = {
  de: { wallet: 'Wallet-Guthaben', card: 'Karte', crypto: 'Krypto' },
  fr: { wallet: 'Solde du portefeuille', card: 'Carte', crypto: 'Crypto' },
  es: { wallet: 'Saldo del monedero', card: 'Tarjeta', crypto: 'Cripto' },
};

export const EXTRA_ORDER_COPY: Record<ExtraLang, OrderCopy> = {
  de: {
    subject: (n, many) => `${many ? 'Ihre eSIMs sind' : 'Ihre eSIM ist'} bereit – Bestellung ${n}`,
    topUpSubject: (n) => `Datenvolumen zu Ihrer eSIM hinzugefügt – Bestellung ${n}`,
    hello: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    intro: (many) =>
      `Vielen Dank für Ihre Bestellung. ${many ? 'Ihre eSIMs sind' : 'Ihre eSIM ist'} bereit zur ` +
      'Installation: Scannen Sie den QR-Code mit dem Telefon, das die eSIM nutzen soll, oder öffnen ' +
      'Sie auf einem iPhone (iOS 17.4 oder neuer) den Installationslink. Installieren Sie die eSIM ' +
      'vor der Reise; der Tarif beginnt, sobald sich die eSIM im Ausland zum ersten Mal verbindet.',
    topUpIntro:
      'Vielen Dank für Ihre Bestellung. Das Datenvolumen wurde Ihrer eSIM hinzugefügt; Sie müssen nichts installieren.',
    order: 'Bestellung',
    date: 'Datum',
    plan: 'Tarif',
    quantity: 'Anzahl',
    amount: 'Betrag',
    inCurrency: 'In Ihrer Währung',
    atRate: (amount, date) => (date ? `${amount} zum Kurs vom ${date}` : amount),
    receipt: 'Beleg (drucken oder PDF)',
    paidWith: 'Bezahlt mit',
    esim: 'eSIM',
    iccid: 'ICCID',
    lpa: 'Aktivierungsstring (LPA)',
    manual: 'Manuelle Eingabe: SM-DP+-Adresse',
    matching: 'Aktivierungscode',
    smdpLabel: 'SM-DP+-Adresse',
    matchingLabel: 'Aktivierungscode',
    ios: 'Auf dem iPhone installieren (ein Tippen)',
    installPage:
      'Installationsseite (öffnen Sie sie auf dem Telefon oder senden Sie sie an die Person, die die eSIM installiert)',
    installPageButton: 'Installationsseite öffnen',
    qrAlt: (iccid) => `QR-Code der eSIM ${iccid}`,
    qrLink: 'QR-Code wird nicht angezeigt? Hier öffnen',
    view: 'Ihre eSIMs, den Verbrauch und die Installationsdaten ansehen',
    footer:
      'Bewahren Sie diese E-Mail auf, bis die eSIM installiert ist: Die meisten eSIMs lassen sich nur ' +
      'einmal installieren. Fragen? Schreiben Sie uns über die Support-Seite der App.',
  },
  fr: {
    subject: (n, many) => `${many ? 'Vos eSIM sont prêtes' : 'Votre eSIM est prête'} – commande ${n}`,
    topUpSubject: (n) => `Données ajoutées à votre eSIM – commande ${n}`,
    hello: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    intro: (many) =>
      `Merci pour votre commande. ${many ? 'Vos eSIM sont prêtes' : 'Votre eSIM est prête'} à être ` +
      'installée' +
      (many ? 's' : '') +
      ' : scannez le QR code avec le téléphone qui l’utilisera, ou, ' +
      'sur un iPhone (iOS 17.4 ou ultérieur), ouvrez le lien d’installation. ' +
      `Installez-${many ? 'les' : 'la'} avant votre départ ;` +
      ' le forfait démarre lorsque l’eSIM se connecte pour la première fois à l’étranger.',
    topUpIntro:
      'Merci pour votre commande. Les données ont été ajoutées à votre eSIM ; aucune installation n’est nécessaire.',
    order: 'Commande',
    date: 'Date',
    plan: 'Forfait',
    quantity: 'Quantité',
    amount: 'Montant',
    inCurrency: 'Dans votre devise',
    atRate: (amount, date) => (date ? `${amount} au taux du ${date}` : amount),
    receipt: 'Reçu (imprimer ou PDF)',
    paidWith: 'Payé par',
    esim: 'eSIM',
    iccid: 'ICCID',
    lpa: 'Chaîne d’activation (LPA)',
    manual: 'Saisie manuelle : adresse SM-DP+',
    matching: 'code d’activation',
    smdpLabel: 'Adresse SM-DP+',
    matchingLabel: 'Code d’activation',
    ios: 'Installer sur iPhone (en un geste)',
    installPage:
      'Page d’installation (ouvrez-la sur le téléphone ou envoyez-la à la personne qui installera l’eSIM)',
    installPageButton: 'Ouvrir la page d’installation',
    qrAlt: (iccid) => `QR code de l’eSIM ${iccid}`,
    qrLink: 'Le QR code ne s’affiche pas ? Ouvrez-le ici',
    view: 'Voir vos eSIM, votre consommation et les détails d’installation',
    footer:
      'Conservez cet e-mail jusqu’à l’installation de l’eSIM : la plupart des eSIM ne peuvent être ' +
      'installées qu’une seule fois. Une question ? Écrivez-nous depuis la page Assistance de l’application.',
  },
  es: {
    subject: (n, many) => `${many ? 'Sus eSIM están listas' : 'Su eSIM está lista'} – pedido ${n}`,
    topUpSubject: (n) => `Datos añadidos a su eSIM – pedido ${n}`,
    hello: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
    intro: (many) =>
      `Gracias por su pedido. ${many ? 'Sus eSIM están listas' : 'Su eSIM está lista'} para instalar: ` +
      'escanee el código QR con el teléfono que la va a usar o, en un iPhone (iOS 17.4 o posterior), ' +
      'abra el enlace de instalación. ' +
      `Instále${many ? 'las' : 'la'} antes de viajar; el plan` +
      ' empieza cuando la eSIM se ' +
      'conecta por primera vez en el extranjero.',
    topUpIntro: 'Gracias por su pedido. Los datos se han añadido a su eSIM; no hace falta instalar nada.',
    order: 'Pedido',
    date: 'Fecha',
    plan: 'Plan',
    quantity: 'Cantidad',
    amount: 'Importe',
    inCurrency: 'En su moneda',
    atRate: (amount, date) => (date ? `${amount} al tipo de cambio del ${date}` : amount),
    receipt: 'Recibo (imprimir o PDF)',
    paidWith: 'Pagado con',
    esim: 'eSIM',
    iccid: 'ICCID',
    lpa: 'Cadena de activación (LPA)',
    manual: 'Introducción manual: dirección SM-DP+',
    matching: 'código de activación',
    smdpLabel: 'Dirección SM-DP+',
    matchingLabel: 'Código de activación',
    ios: 'Instalar en iPhone (con un toque)',
    installPage: 'Página de instalación (ábrala en el teléfono o envíela a quien vaya a instalar la eSIM)',
    installPageButton: 'Abrir la página de instalación',
    qrAlt: (iccid) => `Código QR de la eSIM ${iccid}`,
    qrLink: '¿No ve el código QR? Ábralo aquí',
    view: 'Ver sus eSIM, el consumo y los datos de instalación',
    footer:
      'Conserve este correo hasta que la eSIM esté instalada: la mayoría de las eSIM solo se pueden ' +
      'instalar una vez. ¿Tiene preguntas? Escríbanos desde la página de Soporte de la aplicación.',
  },
};

export const EXTRA_TOPUP_COPY: Record<ExtraLang, TopUpCopy> = {
  de: {
    subject: (amount) => `Wallet-Aufladung erhalten – ${amount}`,
    intro: (amount) => `Wir haben Ihre Zahlung erhalten und Ihrem Wallet ${amount} gutgeschrieben.`,
    credited: 'Dem Wallet gutgeschrieben',
    charged: 'Belastet',
    method: 'Bezahlt mit',
    date: 'Datum',
    balance: 'Neues Guthaben',
    reference: 'Referenz',
    view: 'Ihr Wallet und Ihre Transaktionen ansehen',
    methods: { card: 'Karte', crypto: 'Krypto' },
  },
  fr: {
    subject: (amount) => `Rechargement du portefeuille reçu – ${amount}`,
    intro: (amount) => `Nous avons bien reçu votre paiement et ajouté ${amount} à votre portefeuille.`,
    credited: 'Ajouté au portefeuille',
    charged: 'Débité',
    method: 'Payé par',
    date: 'Date',
    balance: 'Nouveau solde',
    reference: 'Référence',
    view: 'Voir votre portefeuille et vos transactions',
    methods: { card: 'Carte', crypto: 'Crypto' },
  },
  es: {
    subject: (amount) => `Recarga del monedero recibida – ${amount}`,
    intro: (amount) => `Hemos recibido su pago y hemos añadido ${amount} a su monedero.`,
    credited: 'Añadido al monedero',
    charged: 'Cobrado',
    method: 'Pagado con',
    date: 'Fecha',
    balance: 'Nuevo saldo',
    reference: 'Referencia',
    view: 'Ver su monedero y sus movimientos',
    methods: { card: 'Tarjeta', crypto: 'Cripto' },
  },
};
