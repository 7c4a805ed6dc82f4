import { COUNTRIES, type LocalizedName } from './countries.js';

export interface RegionInfo {
  /** Our region code (upper case), the destinationCode of regional and global plans. */
  code: string;
  name: LocalizedName;
  /** ISO alpha-2 members, sorted. */
  countries: string[];
}

const byContinent = (continent: string) =>
  [...COUNTRIES.values()].filter((c) => c.continent === continent).map((c) => c.code);

const MIDDLE_EAST = ['AE', 'BH', 'EG', 'IL', 'IQ', 'JO', 'KW', 'LB', 'OM', 'PS', 'QA', 'SA', 'YE'];
const CENTRAL_AMERICA = ['BZ', 'CR', 'GT', 'HN', 'MX', 'NI', 'PA', 'SV'];
const CARIBBEAN = [
  'AG',
  'AI',
  'AW',
  'BB',
  'BL',
  'BQ',
  'BS',
  'CW',
  'DM',
  'DO',
  'GD',
  'GP',
  'HT',
  'JM',
  'KN',
  'KY',
  'LC',
  'MF',
  'MQ',
  'MS',
  'PR',
  'SX',
  'TC',
  'TT',
  'VC',
  'VG',
  'VI',
];
const BALKANS = ['AL', 'BA', 'BG', 'GR', 'HR', 'ME', 'MK', 'RO', 'RS', 'SI', 'XK'];

type Definition = { code: string; name: LocalizedName; members: () => string[] };

/** Order here is the order regions are listed in. GLOBAL is the region of worldwide plans. */
// prettier-ignore
const DEFINITIONS: Definition[] = [
  {
    code: 'EUROPE',
    name: { en: 'Europe', tr: 'Avrupa', de: 'Europa', fr: 'Europe', es: 'Europa', ru: 'Европа', ar: 'أوروبا', it: 'Europa', pt: 'Europa', nl: 'Europa' },
    members: () => [...byContinent('Europe'), 'TR', 'CY'],
  },
  {
    code: 'ASIA',
    name: { en: 'Asia', tr: 'Asya', de: 'Asien', fr: 'Asie', es: 'Asia', ru: 'Азия', ar: 'آسيا', it: 'Asia', pt: 'Ásia', nl: 'Azië' },
    members: () => byContinent('Asia').filter((c) => !MIDDLE_EAST.includes(c)),
  },
  {
    code: 'MIDDLE_EAST',
    name: { en: 'Middle East', tr: 'Orta Doğu', de: 'Naher Osten', fr: 'Moyen-Orient', es: 'Oriente Medio', ru: 'Ближний Восток', ar: 'الشرق الأوسط', it: 'Medio Oriente', pt: 'Médio Oriente', nl: 'Midden-Oosten' },
    members: () => MIDDLE_EAST,
  },
  {
    code: 'NORTH_AMERICA',
    name: { en: 'North America', tr: 'Kuzey Amerika', de: 'Nordamerika', fr: 'Amérique du Nord', es: 'América del Norte', ru: 'Северная Америка', ar: 'أمريكا الشمالية', it: 'Nord America', pt: 'América do Norte', nl: 'Noord-Amerika' },
    members: () => ['US', 'CA', 'MX'],
  },
  {
    code: 'LATIN_AMERICA',
    name: { en: 'Latin America', tr: 'Latin Amerika', de: 'Lateinamerika', fr: 'Amérique latine', es: 'América Latina', ru: 'Латинская Америка', ar: 'أمريكا اللاتينية', it: 'America Latina', pt: 'América Latina', nl: 'Latijns-Amerika' },
    members: () => [...byContinent('South America'), ...CENTRAL_AMERICA],
  },
  {
    code: 'AFRICA',
    name: { en: 'Africa', tr: 'Afrika', de: 'Afrika', fr: 'Afrique', es: 'África', ru: 'Африка', ar: 'أفريقيا', it: 'Africa', pt: 'África', nl: 'Afrika' },
    members: () => byContinent('Africa'),
  },
  {
    code: 'BALKANS',
    name: { en: 'Balkans', tr: 'Balkanlar', de: 'Balkan', fr: 'Balkans', es: 'Balcanes', ru: 'Балканы', ar: 'البلقان', it: 'Balcani', pt: 'Balcãs', nl: 'Balkan' },
    members: () => BALKANS,
  },
  {
    code: 'CARIBBEAN',
    name: { en: 'Caribbean', tr: 'Karayipler', de: 'Karibik', fr: 'Caraïbes', es: 'Caribe', ru: 'Карибские острова', ar: 'الكاريبي', it: 'Caraibi', pt: 'Caraíbas', nl: 'Caraïben' },
    members: () => CARIBBEAN,
  },
  {
    code: 'GLOBAL',
    name: { en: 'Global', tr: 'Küresel', de: 'Weltweit', fr: 'Monde', es: 'Global', ru: 'Весь мир', ar: 'عالمي', it: 'Globale', pt: 'Global', nl: 'Wereldwijd' },
    members: () => [...COUNTRIES.keys()],
  },
];

export const GLOBAL_REGION = 'GLOBAL';

export const REGIONS: readonly RegionInfo[] = DEFINITIONS.map((d) => ({
  code: d.code,
  name: d.name,
  countries: [...new Set(d.members().filter((c) => COUNTRIES.has(c)))].sort(),
}));

const REGION_BY_CODE = new Map(REGIONS.map((r) => [r.code, r]));

export function findRegion(code: string): RegionInfo | undefined {
  return REGION_BY_CODE.get(code.toUpperCase());
}
