import { countryName, isLocale, type Locale } from './countries.js';
import { findRegion } from './regions.js';
import { numberFormat } from '../../lib/intl.js';

/**
 * Plan names in the reader's language. Provider titles are English and carry the provider's
 * spelling of the country ("Turkey 1GB 7Days"), so every text a customer reads (the Mobile
 * API's plans, mails) is composed here from the destination's CLDR name, the volume and the
 * duration instead.
 */

export interface PlanFacts {
  destinationCode: string;
  dataAmountMb: number;
  durationDays: number;
  isTopUp: boolean;
}

/** Country (ICU name) or region (our hand-translated name) in `locale`; the code when unknown. */
export function destinationName(code: string, locale: string): string {
  const region = findRegion(code);
  if (region) return region.name[isLocale(locale) ? locale : 'en'];
  return countryName(code, locale);
}

function unit(locale: string, name: 'gigabyte' | 'megabyte' | 'day', value: number): string {
  return numberFormat(locale, {
    style: 'unit',
    unit: name,
    unitDisplay: name === 'day' ? 'long' : 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

/** "1 GB", "1,5 GB", "500 MB" in `locale`. */
export function formatDataAmount(mb: number, locale: string): string {
  return mb >= 1024 ? unit(locale, 'gigabyte', mb / 1024) : unit(locale, 'megabyte', mb);
}

/** "7 days", "7 gün". */
export function formatDays(days: number, locale: string): string {
  return unit(locale, 'day', days);
}

const TOP_UP: Record<Locale, string> = {
  en: 'top-up',
  tr: 'ek paket',
  de: 'Aufladung',
  fr: 'recharge',
  es: 'recarga',
  ru: 'пополнение',
  ar: 'إعادة شحن',
  it: 'ricarica',
  pt: 'recarga',
  nl: 'opwaardering',
};

/** "Türkiye · 1 GB · 7 days", a top-up "Türkiye · 1 GB · top-up". */
export function planTitle(plan: PlanFacts, locale: string): string {
  const lang = isLocale(locale) ? locale : 'en';
  const parts = [destinationName(plan.destinationCode, lang), formatDataAmount(plan.dataAmountMb, lang)];
  parts.push(plan.isTopUp ? TOP_UP[lang] : formatDays(plan.durationDays, lang));
  return parts.join(' · ');
}

type Sentence = (p: { dest: string; data: string; days: string }) => string;

const BASE: Record<Locale, Sentence> = {
  en: (p) => `${p.data} of data in ${p.dest}, valid ${p.days} from the first connection.`,
  tr: (p) => `${p.dest} için ${p.data} veri, ilk bağlantıdan itibaren ${p.days} geçerli.`,
  de: (p) => `${p.data} Datenvolumen (${p.dest}), ${p.days} gültig ab der ersten Verbindung.`,
  fr: (p) => `${p.data} de données (${p.dest}), valables ${p.days} dès la première connexion.`,
  es: (p) => `${p.data} de datos para ${p.dest}, válidos ${p.days} desde la primera conexión.`,
  ru: (p) => `${p.data} трафика: ${p.dest}, действует ${p.days} с первого подключения.`,
  ar: (p) => `${p.data} من البيانات في ${p.dest}، صالحة ${p.days} من أول اتصال.`,
  it: (p) => `${p.data} di dati per ${p.dest}, validi ${p.days} dalla prima connessione.`,
  pt: (p) => `${p.data} de dados para ${p.dest}, válidos por ${p.days} a partir da primeira ligação.`,
  nl: (p) => `${p.data} data voor ${p.dest}, ${p.days} geldig vanaf de eerste verbinding.`,
};

const BASE_FROM_INSTALL: Record<Locale, Sentence> = {
  en: (p) => `${p.data} of data in ${p.dest}, valid ${p.days} from installation.`,
  tr: (p) => `${p.dest} için ${p.data} veri, yüklemeden itibaren ${p.days} geçerli.`,
  de: (p) => `${p.data} Datenvolumen (${p.dest}), ${p.days} gültig ab der Installation.`,
  fr: (p) => `${p.data} de données (${p.dest}), valables ${p.days} dès l'installation.`,
  es: (p) => `${p.data} de datos para ${p.dest}, válidos ${p.days} desde la instalación.`,
  ru: (p) => `${p.data} трафика: ${p.dest}, действует ${p.days} с момента установки.`,
  ar: (p) => `${p.data} من البيانات في ${p.dest}، صالحة ${p.days} من التثبيت.`,
  it: (p) => `${p.data} di dati per ${p.dest}, validi ${p.days} dall'installazione.`,
  pt: (p) => `${p.data} de dados para ${p.dest}, válidos por ${p.days} a partir da instalação.`,
  nl: (p) => `${p.data} data voor ${p.dest}, ${p.days} geldig vanaf de installatie.`,
};

const TOP_UP_SENTENCE: Record<Locale, Sentence> = {
  en: (p) => `Adds ${p.data} to an eSIM for ${p.dest} you already have.`,
  tr: (p) => `Mevcut ${p.dest} eSIM'inize ${p.data} ekler.`,
  de: (p) => `Fügt einer vorhandenen eSIM (${p.dest}) ${p.data} hinzu.`,
  fr: (p) => `Ajoute ${p.data} à une eSIM existante (${p.dest}).`,
  es: (p) => `Añade ${p.data} a una eSIM que ya tienes para ${p.dest}.`,
  ru: (p) => `Добавляет ${p.data} к уже установленной eSIM (${p.dest}).`,
  ar: (p) => `يضيف ${p.data} إلى شريحة eSIM لديك بالفعل لـ ${p.dest}.`,
  it: (p) => `Aggiunge ${p.data} a una eSIM per ${p.dest} che hai già.`,
  pt: (p) => `Adiciona ${p.data} a uma eSIM para ${p.dest} que já tem.`,
  nl: (p) => `Voegt ${p.data} toe aan een eSIM voor ${p.dest} die u al hebt.`,
};

/** One sentence describing the plan in `locale`, naming when its validity starts. */
export function planDescription(
  plan: PlanFacts & { activationPolicy?: 'first_install' | 'first_connection' },
  locale: string,
): string {
  const lang = isLocale(locale) ? locale : 'en';
  const parts = {
    dest: destinationName(plan.destinationCode, lang),
    data: formatDataAmount(plan.dataAmountMb, lang),
    days: formatDays(plan.durationDays, lang),
  };
  const sentences = plan.isTopUp
    ? TOP_UP_SENTENCE
    : plan.activationPolicy === 'first_install'
      ? BASE_FROM_INSTALL
      : BASE;
  return sentences[lang](parts);
}
