import type { Language } from '../../i18n';
import { keys } from './keys';
import { events } from './events';
import { overview } from './overview';
import { requests } from './requests';
import { billing } from './billing';
import { shell } from './shell';
import { team } from './team';
import { webhooks } from './webhooks';

/**
 * Every area's messages, merged. An area adds its file here, one line; keys start with `pc.`
 * and the area's name (`pc.webhooks.…`) so two areas never collide.
 */
const AREAS = [shell, overview, team, keys, webhooks, events, requests, billing] as const;

type KeysOf<A> = A extends { en: Record<infer K, string> } ? K : never;
export type PartnerMessageKey = KeysOf<(typeof AREAS)[number]>;

export const PARTNER_MESSAGES = Object.fromEntries(
  (['en', 'tr', 'de', 'fr', 'es'] as const).map((lang) => [
    lang,
    Object.assign({}, ...AREAS.map((area) => area[lang])) as Record<PartnerMessageKey, string>,
  ]),
) as Record<Language, Record<PartnerMessageKey, string>>;
