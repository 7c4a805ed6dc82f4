/**
 * Which way of installing an eSIM suits the device showing it (issue 30 T1), from its user agent:
 * on an iPhone with iOS 17.4 or later Apple's one-tap link; on Android the codes to type in
 * ("Use a code instead"), since a phone cannot scan a QR code on its own screen; on a computer the
 * QR code, to scan with the phone. Every way stays on the page, only the order changes.
 */

export type InstallDevice = { kind: 'ios'; oneTap: boolean } | { kind: 'android' } | { kind: 'desktop' };

/**
 * The parts of an eSIM's install guide: the one-tap link, the SM-DP+ address and activation code
 * (with the LPA string), the numbered steps, the QR code.
 */
export type InstallSection = 'oneTap' | 'codes' | 'steps' | 'qr';

/** The platforms with written steps. */
export type StepsPlatform = 'ios' | 'android';

/** Apple's esimsetup.apple.com link installs from iOS 17.4 on. */
const ONE_TAP_SINCE: readonly [number, number] = [17, 4];

function atLeast(major: number, minor: number): boolean {
  const [wantMajor, wantMinor] = ONE_TAP_SINCE;
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/** `maxTouchPoints` tells an iPad asking for the desktop site (a Mac user agent) from a Mac. */
export function detectDevice(userAgent: string, maxTouchPoints = 0): InstallDevice {
  if (/Android/i.test(userAgent)) return { kind: 'android' };
  const ios = /\b(?:iPhone|iPad|iPod)\b.*?\bOS (\d+)[_.](\d+)/.exec(userAgent);
  if (ios) return { kind: 'ios', oneTap: atLeast(Number(ios[1]), Number(ios[2])) };
  if (/Macintosh/.test(userAgent) && maxTouchPoints > 1) {
    // iPadOS's desktop-class Safari names no iOS version; its Safari version follows the system's.
    const safari = /\bVersion\/(\d+)\.(\d+)/.exec(userAgent);
    return { kind: 'ios', oneTap: safari ? atLeast(Number(safari[1]), Number(safari[2])) : false };
  }
  return { kind: 'desktop' };
}

/**
 * The guide's parts, first the one that suits the device. On a phone the steps follow the codes
 * they use; on a computer they come last, under the QR code, codes and link side by side.
 */
export function installOrder(device: InstallDevice): InstallSection[] {
  switch (device.kind) {
    case 'ios':
      // Before 17.4 the link does nothing: the codes, typed in Settings, come first.
      return device.oneTap ? ['oneTap', 'codes', 'steps', 'qr'] : ['codes', 'steps', 'qr', 'oneTap'];
    case 'android':
      return ['codes', 'steps', 'qr', 'oneTap'];
    case 'desktop':
      return ['qr', 'codes', 'oneTap', 'steps'];
  }
}

/** Whose written steps are open at first: the phone's own; on a computer, both. */
export function openSteps(device: InstallDevice): StepsPlatform[] {
  return device.kind === 'desktop' ? ['ios', 'android'] : [device.kind];
}

/** The device this page runs on. */
export function currentDevice(): InstallDevice {
  if (typeof navigator === 'undefined') return { kind: 'desktop' };
  return detectDevice(navigator.userAgent, navigator.maxTouchPoints ?? 0);
}
