import type { MailLang } from '../mail/templates.js';
import type { TravellerAlert } from './ports.js';

/** The words of one alert: the push's title and body, the mail's subject and text, the link's label. */
export interface AlertWords {
  title: string;
  body: string;
  /** The mail's first paragraph (the push body is short; a mail can say what to do). */
  detail: string;
  action: string;
}

type Kind = TravellerAlert['kind'];
type Of<K extends Kind> = Extract<TravellerAlert, { kind: K }>;
type Copy = { [K in Kind]: (alert: Of<K>, tail: string) => AlertWords };

const usd = (cents: number) => `US$${(cents / 100).toFixed(2)}`;

/**
 * The traveller's alerts in every UI language. Each says what happened and what to do about it,
 * for someone abroad on a phone: short titles, the eSIM named by the end of its ICCID (`tail`).
 */
const COPY: Record<MailLang, Copy> = {
  en: {
    usage: (a, tail) =>
      a.percent === 100
        ? {
            title: 'Your eSIM data is used up',
            body: `eSIM …${tail} has no data left. Top it up to stay online.`,
            detail: `Your eSIM ending in ${tail} has used all of its data. Add a top-up to keep using mobile data.`,
            action: 'Top up this eSIM',
          }
        : {
            title: `${a.percent} % of your eSIM data used`,
            body: `eSIM …${tail} has ${100 - a.percent} % of its data left.`,
            detail: `Your eSIM ending in ${tail} has used ${a.percent} % of its data. A top-up now keeps you online.`,
            action: 'See usage and top up',
          },
    expiring: (a, tail) => ({
      title: a.daysLeft === 1 ? 'Your eSIM expires tomorrow' : 'Your eSIM expires in 3 days',
      body: `eSIM …${tail} expires in ${a.daysLeft === 1 ? '1 day' : '3 days'}.`,
      detail: `Your eSIM ending in ${tail} expires in ${a.daysLeft === 1 ? '1 day' : '3 days'}. A top-up extends it.`,
      action: 'Extend this eSIM',
    }),
    esim_ready: (_a, tail) => ({
      title: 'Your eSIM is ready',
      body: `eSIM …${tail} is ready to install.`,
      detail: `Your eSIM ending in ${tail} is ready. Open it to install it on your phone.`,
      action: 'Install your eSIM',
    }),
    ticket_answered: () => ({
      title: 'Support answered your ticket',
      body: 'There is a new reply to your support ticket.',
      detail: 'Our support team replied to your ticket.',
      action: 'Read the reply',
    }),
    auto_topup_succeeded: (a, tail) => ({
      title: 'Your eSIM was topped up',
      body: `eSIM …${tail} was topped up automatically (${usd(a.amountCents)}).`,
      detail: `Your eSIM ending in ${tail} was topped up automatically; ${usd(a.amountCents)} was charged to your wallet.`,
      action: 'See this eSIM',
    }),
    auto_topup_failed: (a, tail) => ({
      title: 'Automatic top-up failed',
      body: `eSIM …${tail} could not be topped up: ${FAILED_REASON.en[a.reason]}`,
      detail: `The automatic top-up of your eSIM ending in ${tail} failed: ${FAILED_REASON.en[a.reason]} Top it up yourself to stay online.`,
      action: 'Top up this eSIM',
    }),
  },
  tr: {
    usage: (a, tail) =>
      a.percent === 100
        ? {
            title: 'eSIM veriniz bitti',
            body: `…${tail} eSIM'inizde veri kalmadı. Çevrimiçi kalmak için yükleme yapın.`,
            detail: `${tail} ile biten eSIM'iniz tüm verisini kullandı. Mobil veriyi kullanmaya devam etmek için yükleme ekleyin.`,
            action: "Bu eSIM'e yükleme yap",
          }
        : {
            title: `eSIM verinizin %${a.percent}'i kullanıldı`,
            body: `…${tail} eSIM'inizin verisinin %${100 - a.percent}'i kaldı.`,
            detail: `${tail} ile biten eSIM'iniz verisinin %${a.percent}'ini kullandı. Şimdi yükleme yaparak çevrimiçi kalabilirsiniz.`,
            action: 'Kullanımı gör ve yükleme yap',
          },
    expiring: (a, tail) => ({
      title:
        a.daysLeft === 1 ? "eSIM'inizin süresi yarın doluyor" : "eSIM'inizin süresi 3 gün içinde doluyor",
      body: `…${tail} eSIM'inizin süresi ${a.daysLeft} gün içinde doluyor.`,
      detail: `${tail} ile biten eSIM'inizin süresi ${a.daysLeft} gün içinde doluyor. Yükleme süreyi uzatır.`,
      action: "Bu eSIM'i uzat",
    }),
    esim_ready: (_a, tail) => ({
      title: "eSIM'iniz hazır",
      body: `…${tail} eSIM'iniz kuruluma hazır.`,
      detail: `${tail} ile biten eSIM'iniz hazır. Telefonunuza kurmak için açın.`,
      action: "eSIM'inizi kurun",
    }),
    ticket_answered: () => ({
      title: 'Destek talebiniz yanıtlandı',
      body: 'Destek talebinize yeni bir yanıt var.',
      detail: 'Destek ekibimiz talebinizi yanıtladı.',
      action: 'Yanıtı oku',
    }),
    auto_topup_succeeded: (a, tail) => ({
      title: "eSIM'inize yükleme yapıldı",
      body: `…${tail} eSIM'inize otomatik yükleme yapıldı (${usd(a.amountCents)}).`,
      detail: `${tail} ile biten eSIM'inize otomatik yükleme yapıldı; cüzdanınızdan ${usd(a.amountCents)} alındı.`,
      action: "Bu eSIM'i gör",
    }),
    auto_topup_failed: (a, tail) => ({
      title: 'Otomatik yükleme başarısız',
      body: `…${tail} eSIM'inize yükleme yapılamadı: ${FAILED_REASON.tr[a.reason]}`,
      detail: `${tail} ile biten eSIM'inizin otomatik yüklemesi başarısız oldu: ${FAILED_REASON.tr[a.reason]} Çevrimiçi kalmak için kendiniz yükleme yapın.`,
      action: "Bu eSIM'e yükleme yap",
    }),
  },
  de: {
    usage: (a, tail) =>
      a.percent === 100
        ? {
            title: 'Ihr eSIM-Datenvolumen ist aufgebraucht',
            body: `eSIM …${tail} hat kein Datenvolumen mehr. Laden Sie auf, um online zu bleiben.`,
            detail: `Ihre eSIM mit der Endung ${tail} hat ihr gesamtes Datenvolumen verbraucht. Mit einer Aufladung nutzen Sie weiter mobile Daten.`,
            action: 'Diese eSIM aufladen',
          }
        : {
            title: `${a.percent} % Ihres eSIM-Datenvolumens verbraucht`,
            body: `eSIM …${tail} hat noch ${100 - a.percent} % ihres Datenvolumens.`,
            detail: `Ihre eSIM mit der Endung ${tail} hat ${a.percent} % ihres Datenvolumens verbraucht. Eine Aufladung hält Sie online.`,
            action: 'Verbrauch ansehen und aufladen',
          },
    expiring: (a, tail) => ({
      title: a.daysLeft === 1 ? 'Ihre eSIM läuft morgen ab' : 'Ihre eSIM läuft in 3 Tagen ab',
      body: `eSIM …${tail} läuft in ${a.daysLeft === 1 ? '1 Tag' : '3 Tagen'} ab.`,
      detail: `Ihre eSIM mit der Endung ${tail} läuft in ${a.daysLeft === 1 ? '1 Tag' : '3 Tagen'} ab. Eine Aufladung verlängert sie.`,
      action: 'Diese eSIM verlängern',
    }),
    esim_ready: (_a, tail) => ({
      title: 'Ihre eSIM ist bereit',
      body: `eSIM …${tail} kann installiert werden.`,
      detail: `Ihre eSIM mit der Endung ${tail} ist bereit. Öffnen Sie sie, um sie auf Ihrem Telefon zu installieren.`,
      action: 'eSIM installieren',
    }),
    ticket_answered: () => ({
      title: 'Der Support hat geantwortet',
      body: 'Es gibt eine neue Antwort auf Ihre Support-Anfrage.',
      detail: 'Unser Support-Team hat auf Ihre Anfrage geantwortet.',
      action: 'Antwort lesen',
    }),
    auto_topup_succeeded: (a, tail) => ({
      title: 'Ihre eSIM wurde aufgeladen',
      body: `eSIM …${tail} wurde automatisch aufgeladen (${usd(a.amountCents)}).`,
      detail: `Ihre eSIM mit der Endung ${tail} wurde automatisch aufgeladen; ${usd(a.amountCents)} wurden Ihrem Guthaben belastet.`,
      action: 'Diese eSIM ansehen',
    }),
    auto_topup_failed: (a, tail) => ({
      title: 'Automatische Aufladung fehlgeschlagen',
      body: `eSIM …${tail} konnte nicht aufgeladen werden: ${FAILED_REASON.de[a.reason]}`,
      detail: `Die automatische Aufladung Ihrer eSIM mit der Endung ${tail} ist fehlgeschlagen: ${FAILED_REASON.de[a.reason]} Laden Sie selbst auf, um online zu bleiben.`,
      action: 'Diese eSIM aufladen',
    }),
  },
  fr: {
    usage: (a, tail) =>
      a.percent === 100
        ? {
            title: 'Les données de votre eSIM sont épuisées',
            body: `L’eSIM …${tail} n’a plus de données. Rechargez-la pour rester connecté.`,
            detail: `Votre eSIM se terminant par ${tail} a utilisé toutes ses données. Ajoutez une recharge pour continuer à utiliser les données mobiles.`,
            action: 'Recharger cette eSIM',
          }
        : {
            title: `${a.percent} % des données de votre eSIM utilisées`,
            body: `Il reste ${100 - a.percent} % des données de l’eSIM …${tail}.`,
            detail: `Votre eSIM se terminant par ${tail} a utilisé ${a.percent} % de ses données. Une recharge maintenant vous garde connecté.`,
            action: 'Voir la consommation et recharger',
          },
    expiring: (a, tail) => ({
      title: a.daysLeft === 1 ? 'Votre eSIM expire demain' : 'Votre eSIM expire dans 3 jours',
      body: `L’eSIM …${tail} expire dans ${a.daysLeft === 1 ? '1 jour' : '3 jours'}.`,
      detail: `Votre eSIM se terminant par ${tail} expire dans ${a.daysLeft === 1 ? '1 jour' : '3 jours'}. Une recharge la prolonge.`,
      action: 'Prolonger cette eSIM',
    }),
    esim_ready: (_a, tail) => ({
      title: 'Votre eSIM est prête',
      body: `L’eSIM …${tail} est prête à être installée.`,
      detail: `Votre eSIM se terminant par ${tail} est prête. Ouvrez-la pour l’installer sur votre téléphone.`,
      action: 'Installer votre eSIM',
    }),
    ticket_answered: () => ({
      title: 'Le support a répondu',
      body: 'Votre demande d’assistance a reçu une nouvelle réponse.',
      detail: 'Notre équipe d’assistance a répondu à votre demande.',
      action: 'Lire la réponse',
    }),
    auto_topup_succeeded: (a, tail) => ({
      title: 'Votre eSIM a été rechargée',
      body: `L’eSIM …${tail} a été rechargée automatiquement (${usd(a.amountCents)}).`,
      detail: `Votre eSIM se terminant par ${tail} a été rechargée automatiquement ; ${usd(a.amountCents)} ont été débités de votre portefeuille.`,
      action: 'Voir cette eSIM',
    }),
    auto_topup_failed: (a, tail) => ({
      title: 'La recharge automatique a échoué',
      body: `L’eSIM …${tail} n’a pas pu être rechargée : ${FAILED_REASON.fr[a.reason]}`,
      detail: `La recharge automatique de votre eSIM se terminant par ${tail} a échoué : ${FAILED_REASON.fr[a.reason]} Rechargez-la vous-même pour rester connecté.`,
      action: 'Recharger cette eSIM',
    }),
  },
  es: {
    usage: (a, tail) =>
      a.percent === 100
        ? {
            title: 'Se agotaron los datos de su eSIM',
            body: `La eSIM …${tail} no tiene datos. Recárguela para seguir conectado.`,
            detail: `Su eSIM terminada en ${tail} ha usado todos sus datos. Añada una recarga para seguir usando datos móviles.`,
            action: 'Recargar esta eSIM',
          }
        : {
            title: `Ha usado el ${a.percent} % de los datos de su eSIM`,
            body: `A la eSIM …${tail} le queda el ${100 - a.percent} % de sus datos.`,
            detail: `Su eSIM terminada en ${tail} ha usado el ${a.percent} % de sus datos. Una recarga ahora le mantiene conectado.`,
            action: 'Ver el consumo y recargar',
          },
    expiring: (a, tail) => ({
      title: a.daysLeft === 1 ? 'Su eSIM caduca mañana' : 'Su eSIM caduca en 3 días',
      body: `La eSIM …${tail} caduca en ${a.daysLeft === 1 ? '1 día' : '3 días'}.`,
      detail: `Su eSIM terminada en ${tail} caduca en ${a.daysLeft === 1 ? '1 día' : '3 días'}. Una recarga la amplía.`,
      action: 'Ampliar esta eSIM',
    }),
    esim_ready: (_a, tail) => ({
      title: 'Su eSIM está lista',
      body: `La eSIM …${tail} está lista para instalar.`,
      detail: `Su eSIM terminada en ${tail} está lista. Ábrala para instalarla en su teléfono.`,
      action: 'Instalar su eSIM',
    }),
    ticket_answered: () => ({
      title: 'Soporte ha respondido',
      body: 'Hay una nueva respuesta a su solicitud de soporte.',
      detail: 'Nuestro equipo de soporte ha respondido a su solicitud.',
      action: 'Leer la respuesta',
    }),
    auto_topup_succeeded: (a, tail) => ({
      title: 'Su eSIM se ha recargado',
      body: `La eSIM …${tail} se ha recargado automáticamente (${usd(a.amountCents)}).`,
      detail: `Su eSIM terminada en ${tail} se ha recargado automáticamente; se han cargado ${usd(a.amountCents)} a su monedero.`,
      action: 'Ver esta eSIM',
    }),
    auto_topup_failed: (a, tail) => ({
      title: 'La recarga automática ha fallado',
      body: `No se pudo recargar la eSIM …${tail}: ${FAILED_REASON.es[a.reason]}`,
      detail: `La recarga automática de su eSIM terminada en ${tail} ha fallado: ${FAILED_REASON.es[a.reason]} Recárguela usted mismo para seguir conectado.`,
      action: 'Recargar esta eSIM',
    }),
  },
};

type FailReason = Of<'auto_topup_failed'>['reason'];

const FAILED_REASON: Record<MailLang, Record<FailReason, string>> = {
  en: {
    insufficient_balance: 'your wallet balance is too low.',
    monthly_limit: 'your monthly auto top-up limit is reached.',
    plan_unavailable: 'the top-up plan is no longer available.',
    provider_error: 'the network operator did not respond.',
  },
  tr: {
    insufficient_balance: 'cüzdan bakiyeniz yetersiz.',
    monthly_limit: 'aylık otomatik yükleme sınırınıza ulaşıldı.',
    plan_unavailable: 'yükleme paketi artık mevcut değil.',
    provider_error: 'operatör yanıt vermedi.',
  },
  de: {
    insufficient_balance: 'Ihr Guthaben reicht nicht aus.',
    monthly_limit: 'Ihr monatliches Limit für automatische Aufladungen ist erreicht.',
    plan_unavailable: 'das Aufladepaket ist nicht mehr verfügbar.',
    provider_error: 'der Netzbetreiber hat nicht geantwortet.',
  },
  fr: {
    insufficient_balance: 'le solde de votre portefeuille est insuffisant.',
    monthly_limit: 'votre plafond mensuel de recharges automatiques est atteint.',
    plan_unavailable: 'le forfait de recharge n’est plus disponible.',
    provider_error: 'l’opérateur n’a pas répondu.',
  },
  es: {
    insufficient_balance: 'el saldo de su monedero es insuficiente.',
    monthly_limit: 'ha alcanzado su límite mensual de recargas automáticas.',
    plan_unavailable: 'el plan de recarga ya no está disponible.',
    provider_error: 'el operador no respondió.',
  },
};

/** The last 4 digits of an ICCID: enough to tell a traveller's eSIMs apart, short enough for a push. */
export const iccidTail = (iccid: string) => iccid.slice(-4);

export function alertWords(lang: MailLang, alert: TravellerAlert): AlertWords {
  const tail = 'iccid' in alert ? iccidTail(alert.iccid) : '';
  const copy = COPY[lang];
  // One switch so each kind's wording gets its own alert type.
  switch (alert.kind) {
    case 'usage':
      return copy.usage(alert, tail);
    case 'expiring':
      return copy.expiring(alert, tail);
    case 'esim_ready':
      return copy.esim_ready(alert, tail);
    case 'ticket_answered':
      return copy.ticket_answered(alert, tail);
    case 'auto_topup_succeeded':
      return copy.auto_topup_succeeded(alert, tail);
    case 'auto_topup_failed':
      return copy.auto_topup_failed(alert, tail);
  }
}
