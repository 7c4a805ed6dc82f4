import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { I18nProvider } from '../i18n';
import { CompatibilityChecker } from './CompatibilityChecker';

afterEach(() => vi.unstubAllGlobals());

describe('CompatibilityChecker', () => {
  const renderChecker = (lang: 'en' | 'tr' = 'en') =>
    render(
      <I18nProvider initial={lang}>
        <CompatibilityChecker />
      </I18nProvider>,
    );

  test('before a search, the brands fold open one at a time', async () => {
    renderChecker();
    expect(screen.getByRole('status').textContent).toMatch(/^\d+ phones of \d+ brands\./);
    const groups = screen.getByTestId('brand-groups');
    const summaries = [...groups.querySelectorAll('summary')].map((s) => s.textContent);
    expect(summaries.slice(0, 3)).toEqual([
      expect.stringMatching(/^Apple \(\d+\)$/),
      expect.stringMatching(/^Google \(\d+\)$/),
      expect.stringMatching(/^Samsung \(\d+\)$/),
    ]);
    const apple = groups.querySelector('details')!;
    expect(within(apple).getByRole('list', { name: 'Apple' })).toBeTruthy();
    // The brand's own note once, under its models.
    expect(apple.querySelector('.brand-notes')?.textContent).toMatch(
      /^Apple: Not on iPhones sold in mainland China/,
    );
  });

  test('a labelled search filters the list of phones and says how many match', async () => {
    renderChecker();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search phone models'), 'pixel 8');
    const list = await screen.findByRole('list', { name: 'Phones with eSIM' });
    await vi.waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Google Pixel 8', 'Google Pixel 8 Pro', 'Google Pixel 8a']),
    );
    expect(screen.getByRole('status').textContent).toBe('Models found: 3');
  });

  test('no match says how to check the phone itself', async () => {
    renderChecker();
    await userEvent.setup().type(screen.getByLabelText('Search phone models'), 'nokia 3310');
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(/No model matches “nokia 3310”/),
    );
    expect(screen.queryByRole('list')).toBeNull();
  });

  test('an iPhone gets the iPhone hint, in the UI language', () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15',
    });
    renderChecker('tr');
    expect(screen.getByTestId('compat-hint').textContent).toMatch(/^Bu bir iPhone gibi görünüyor/);
  });
});
