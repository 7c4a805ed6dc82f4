import { useId, useMemo, type ReactNode } from 'react';
import type { Esim } from '../api/types';
import { useI18n, type MessageKey } from '../i18n';
import {
  currentDevice,
  installOrder,
  openSteps,
  type InstallDevice,
  type InstallSection,
  type StepsPlatform,
} from '../lib/device';
import { CopyButton } from './CopyButton';

/** What installing takes: the Mobile eSIM and the public install page both carry these fields. */
export type InstallData = Pick<
  Esim,
  'iccid' | 'smdpAddress' | 'matchingId' | 'activationCode' | 'qrCodeSvgUrl' | 'iosInstallUrl' | 'status'
>;

type Heading = 'h2' | 'h3' | 'h4';

const STEPS: Record<StepsPlatform, readonly MessageKey[]> = {
  ios: ['install.ios.1', 'install.ios.2', 'install.ios.3', 'install.ios.4'],
  android: [
    'install.android.1',
    'install.android.2',
    'install.android.3',
    'install.android.4',
    'install.android.5',
  ],
};

/** A value to type on the phone: label, the value, and a Copy button. */
export function CodeField({
  label,
  value,
  copyLabel,
  testId,
}: {
  label: string;
  value: string;
  copyLabel: string;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="code-field">
      <span className="code-label" id={id}>
        {label}
      </span>
      <code aria-labelledby={id} data-testid={testId}>
        {value}
      </code>
      <CopyButton text={value} label={copyLabel} />
    </div>
  );
}

/**
 * How to install one eSIM (issue 30 T1): Apple's one-tap link, the SM-DP+ address and activation
 * code to type in ("Use a code instead"), the full LPA string, the QR code, and with `steps` the
 * numbered steps for iPhone and Android. All of it on every device; the order follows the device
 * (lib/device.ts), so the way that works on this screen comes first.
 */
export function InstallGuide({
  esim,
  steps = false,
  heading = 'h3',
  device: given,
}: {
  esim: InstallData;
  steps?: boolean;
  heading?: Heading;
  /** Tests only: the device to lay out for, instead of this browser's. */
  device?: InstallDevice;
}) {
  const { t } = useI18n();
  const device = useMemo(() => given ?? currentDevice(), [given]);
  const H = heading;
  // A used-up, expired or cancelled eSIM installs nowhere: no link that would only fail.
  const installable = esim.status === 'PENDING' || esim.status === 'ACTIVE';

  const sections: Record<InstallSection, ReactNode> = {
    oneTap: installable ? (
      <section className="install-section" data-install-section="oneTap" key="oneTap">
        <H>{t('install.oneTap.title')}</H>
        <p className="hint">{t('install.oneTap.body')}</p>
        <a className="button primary" href={esim.iosInstallUrl}>
          {t('esim.installIos')}
        </a>
      </section>
    ) : null,
    codes: (
      <section className="install-section" data-install-section="codes" key="codes">
        <H>{t('install.codes.title')}</H>
        <p className="hint">{t('install.codes.body')}</p>
        <CodeField
          label={t('esim.smdp')}
          value={esim.smdpAddress}
          copyLabel={t('esim.copySmdp')}
          testId="smdp"
        />
        <CodeField
          label={t('esim.matchingId')}
          value={esim.matchingId}
          copyLabel={t('esim.copyMatchingId')}
          testId="matching-id"
        />
        <CodeField
          label={t('esim.lpa')}
          value={esim.activationCode}
          copyLabel={t('esim.copyLpa')}
          testId="lpa"
        />
      </section>
    ),
    steps: steps ? <Steps device={device} heading={H} key="steps" /> : null,
    qr: (
      <section className="install-section install-qr" data-install-section="qr" key="qr">
        <H>{t('install.qr.title')}</H>
        <figure className="qr">
          <img
            src={esim.qrCodeSvgUrl}
            alt={t('esim.qrAlt', { iccid: esim.iccid })}
            width="180"
            height="180"
          />
          <figcaption className="hint">{t('install.qr.body')}</figcaption>
        </figure>
      </section>
    ),
  };

  return (
    <div className="install-guide" data-device={device.kind}>
      {installOrder(device).map((s) => sections[s])}
    </div>
  );
}

/** The numbered steps per platform; the device's own are open (a computer opens both). */
function Steps({ device, heading: H }: { device: InstallDevice; heading: Heading }) {
  const { t } = useI18n();
  const open = openSteps(device);
  // The device's own platform first.
  const platforms: StepsPlatform[] = device.kind === 'android' ? ['android', 'ios'] : ['ios', 'android'];
  return (
    <section className="install-section install-steps" data-install-section="steps">
      <H>{t('install.steps.title')}</H>
      <p className="hint">{t('install.wifi')}</p>
      <div className="install-steps-lists">
        {platforms.map((platform) => (
          <details key={platform} open={open.includes(platform)} data-steps={platform}>
            <summary>{t(`install.steps.${platform}`)}</summary>
            <ol>
              {STEPS[platform].map((key) => (
                <li key={key}>{t(key)}</li>
              ))}
            </ol>
          </details>
        ))}
      </div>
    </section>
  );
}
