import { cleanup, render, screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { I18nProvider } from '../i18n';
import type { InstallDevice } from '../lib/device';
import { InstallGuide, type InstallData } from './InstallGuide';

const esim: InstallData = {
  iccid: '8937204016150000001',
  smdpAddress: 'smdp.example.com',
  matchingId: 'K2-1XQ9P4-7H3L2M',
  activationCode: 'LPA:1$smdp.example.com$K2-1XQ9P4-7H3L2M',
  qrCodeSvgUrl: '/api/v1/esims/qr_x/qr.svg',
  iosInstallUrl: 'https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=LPA:1$smdp.example.com$K2',
  status: 'PENDING',
};

function sections(device: InstallDevice, lang: 'en' | 'tr' = 'en', data = esim, steps = true) {
  const { container } = render(
    <I18nProvider initial={lang}>
      <InstallGuide esim={data} steps={steps} device={device} />
    </I18nProvider>,
  );
  return [...container.querySelectorAll('[data-install-section]')].map((e) =>
    e.getAttribute('data-install-section'),
  );
}

describe('InstallGuide', () => {
  test('the SM-DP+ address and the activation code are two fields with Copy, beside the LPA string', () => {
    sections({ kind: 'desktop' });
    expect(screen.getByTestId('smdp').textContent).toBe('smdp.example.com');
    expect(screen.getByTestId('matching-id').textContent).toBe('K2-1XQ9P4-7H3L2M');
    expect(screen.getByTestId('lpa').textContent).toBe(esim.activationCode);
    for (const name of ['Copy SM-DP+ address', 'Copy activation code', 'Copy activation string']) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    expect(screen.getByRole('img', { name: /QR code/ })).toBeTruthy();
  });

  test('what comes first follows the device', () => {
    expect(sections({ kind: 'ios', oneTap: true })).toEqual(['oneTap', 'codes', 'steps', 'qr']);
    cleanup();
    expect(sections({ kind: 'android' })).toEqual(['codes', 'steps', 'qr', 'oneTap']);
    cleanup();
    expect(sections({ kind: 'desktop' })).toEqual(['qr', 'codes', 'oneTap', 'steps']);
  });

  test('without steps (the list’s cards) the rest keeps its order', () => {
    expect(sections({ kind: 'android' }, 'en', esim, false)).toEqual(['codes', 'qr', 'oneTap']);
  });

  test('numbered steps for iPhone and Android, the phone’s own open, roaming on arrival last', () => {
    const { container } = render(
      <I18nProvider initial="en">
        <InstallGuide esim={esim} steps device={{ kind: 'android' }} />
      </I18nProvider>,
    );
    const android = container.querySelector<HTMLDetailsElement>('details[data-steps="android"]')!;
    const ios = container.querySelector<HTMLDetailsElement>('details[data-steps="ios"]')!;
    expect(android.open).toBe(true);
    expect(ios.open).toBe(false);
    const steps = within(android).getAllByRole('listitem');
    expect(steps).toHaveLength(5);
    expect(steps[1]!.textContent).toContain('Use a code instead');
    expect(steps.at(-1)!.textContent).toMatch(/^On arrival, turn on roaming for this line/);
    expect(within(ios).getAllByRole('listitem').at(-1)!.textContent).toMatch(
      /^On arrival, turn on data roaming/,
    );
  });

  test('in Turkish too; a used-up eSIM offers no one-tap link', () => {
    sections({ kind: 'ios', oneTap: true }, 'tr', { ...esim, status: 'DEPLETED' });
    expect(screen.getByRole('heading', { name: 'Bunun yerine kod kullanın' })).toBeTruthy();
    expect(screen.getByText(/^Vardığınızda bu hat için veri dolaşımını açın/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: "iPhone'a yükle" })).toBeNull();
  });
});
