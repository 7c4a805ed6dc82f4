import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../api/client';
import { I18nProvider } from '../i18n';
import { FormError } from './FormError';
import { UsageBar } from './UsageBar';
import { CopyButton } from './CopyButton';

const wrap = (ui: React.ReactNode, lang: 'en' | 'tr' = 'en') =>
  render(<I18nProvider initial={lang}>{ui}</I18nProvider>);

describe('FormError', () => {
  test('known codes get our own message in the UI language', () => {
    wrap(<FormError error={new ApiError(400, 'INSUFFICIENT_BALANCE', 'Yetersiz bakiye')} />, 'tr');
    expect(screen.getByRole('alert').textContent).toBe(
      'Cüzdan bakiyeniz bu satın alma için yetersiz. Bakiye yükleyin ya da kartla ödeyin.',
    );
  });

  test("unknown codes fall back to the API's message", () => {
    wrap(
      <FormError error={new ApiError(400, 'VALIDATION_ERROR', 'Invalid request. amount must be ≥ 200')} />,
    );
    expect(screen.getByRole('alert').textContent).toBe('Invalid request. amount must be ≥ 200');
  });

  test('nothing without an error; a generic text for non-API failures', () => {
    const { container } = wrap(<FormError error={null} />);
    expect(container.textContent).toBe('');
    wrap(<FormError error={new TypeError('boom')} />);
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong. Please try again.');
  });
});

describe('UsageBar', () => {
  test('shows used of total and exposes the values to assistive technology', () => {
    wrap(<UsageBar used={256} total={1024} />);
    const bar = screen.getByRole('progressbar', { name: 'Data used' });
    expect(bar.getAttribute('aria-valuenow')).toBe('256');
    expect(bar.getAttribute('aria-valuemax')).toBe('1024');
    expect(bar.getAttribute('aria-valuetext')).toBe('256 MB of 1 GB used');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('25%');
    expect(screen.getByText('768 MB left')).toBeTruthy();
  });

  test('over the total: full bar, nothing left, marked high', () => {
    wrap(<UsageBar used={1100} total={1024} />, 'tr');
    const bar = screen.getByRole('progressbar');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('100%');
    expect(bar.className).toContain('high');
    expect(screen.getByText('0 MB kaldı')).toBeTruthy();
  });
});

describe('CopyButton', () => {
  test('copies the text and says so', async () => {
    const user = userEvent.setup();
    wrap(<CopyButton text="LPA:1$smdp.example$ABC" label="Copy activation code" />);
    await user.click(screen.getByRole('button', { name: 'Copy activation code' }));
    expect(await navigator.clipboard.readText()).toBe('LPA:1$smdp.example$ABC');
    expect(screen.getByRole('button').textContent).toBe('Copied');
  });
});
