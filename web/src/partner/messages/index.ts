import type { Language } from '../../i18n';
import { billing } from './billing';
import { shell } from './shell';

/**
 * Every area's messages, merged. An area adds its file here, one line; keys start with `pc.`
 * and the area's name (`pc.webhooks.…`) so two areas never collide.
 */
const AREAS = [shell, billing] as const;

type KeysOf<A> = A extends { en: Record<infer K, string> } ? K : never;
export type PartnerMessageKey = KeysOf<(typeof AREAS)[number]>;

export const PARTNER_MESSAGES = Object.fromEntries(
  (['en', 'tr', 'de', 'fr', 'es'] as const).map((lang) => [
    lang,
    Object.assign({}, ...AREAS.map((area) => area[lang])) as Record<PartnerMessageKey, string>,
  ]),
) as Record<Language, Record<PartnerMessageKey, string>>;
