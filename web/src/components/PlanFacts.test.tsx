import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Plan } from '../api/types';
import { I18nProvider } from '../i18n';
import { PlanFacts, searchCountries } from './PlanFacts';

const price = { amount: 9.99, currency: 'USD', formatted: '$9.99' };
const EUROPE: Plan = {
  id: 'plan_sbx-europe-5gb-30d',
  title: 'Europe · 5 GB · 30 days',
  description: '',
  dataAmountMb: 5120,
  durationDays: 30,
  isTopUp: false,
  scope: 'region',
  activationPolicy: 'first_install',
  topUpSupported: false,
  coverage: [
    { code: 'AT', name: 'Austria' },
    { code: 'CI', name: 'Côte d’Ivoire' },
    { code: 'DE', name: 'Germany' },
    { code: 'TR', name: 'Türkiye' },
  ],
  price,
  priceUsd: price,
};
const TURKEY: Plan = {
  ...EUROPE,
  id: 'plan_sbx-tr-3gb-15d',
  title: 'Türkiye · 3 GB · 15 days',
  dataAmountMb: 3072,
  durationDays: 15,
  scope: 'country',
  activationPolicy: 'first_connection',
  topUpSupported: true,
  coverage: [{ code: 'TR', name: 'Türkiye' }],
};

const show = (plan: Plan) =>
  render(
    <I18nProvider>
      <PlanFacts plan={plan} />
    </I18nProvider>,
  );

const fact = (term: string) => {
  const dt = screen.getAllByRole('term').find((el) => el.textContent === term);
  return dt?.nextElementSibling?.textContent;
};

describe('PlanFacts', () => {
  test('a country plan: data, validity, first connection, top-ups, its country; no country list', () => {
    show(TURKEY);
    expect(screen.getByRole('heading', { name: 'About Türkiye · 3 GB · 15 days' })).toBeTruthy();
    expect(fact('Data')).toBe('3 GB');
    expect(fact('Validity')).toBe('15 days');
    expect(fact('Validity starts')).toMatch(/^When it first connects to a network at your destination/);
    expect(fact('Top-ups')).toBe('Can be topped up with more data later');
    expect(fact('Works in')).toBe('Türkiye');
    expect(screen.queryByRole('button', { name: /countries/ })).toBeNull();
  });

  test('a regional plan: from installation, no top-ups, a disclosure with a labelled search', async () => {
    const user = userEvent.setup();
    show(EUROPE);
    expect(fact('Validity starts')).toMatch(/^When you install the eSIM/);
    expect(fact('Top-ups')).toBe('Cannot be topped up: buy a new plan for more data');
    expect(fact('Works in')).toBe('4 countries');
    const toggle = screen.getByRole('button', { name: 'Show all 4 countries' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('list', { name: 'Covered countries' })).toBeNull();

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const list = screen.getByRole('list', { name: 'Covered countries' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);

    // Accents and case do not matter; Enter in the search does not submit anything.
    await user.type(screen.getByRole('searchbox', { name: 'Search the covered countries' }), 'cote{Enter}');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Côte d’Ivoire']);
    expect(screen.getByRole('status').textContent).toBe('1 of 4 countries');
    await user.clear(screen.getByRole('searchbox'));
    await user.type(screen.getByRole('searchbox'), 'Narnia');
    expect(screen.getByRole('status').textContent).toBe('No covered country matches “Narnia”.');

    await user.click(screen.getByRole('button', { name: 'Hide the countries' }));
    expect(screen.queryByRole('list', { name: 'Covered countries' })).toBeNull();
  });

  test('searchCountries matches every word in the name or the ISO code', () => {
    expect(searchCountries(EUROPE.coverage, 'de').map((c) => c.code)).toEqual(['DE']);
    expect(searchCountries(EUROPE.coverage, 'TÜR').map((c) => c.code)).toEqual(['TR']);
    expect(searchCountries(EUROPE.coverage, '  ')).toHaveLength(4);
  });
});
