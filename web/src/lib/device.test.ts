import { describe, expect, test } from 'vitest';
import { detectDevice, installOrder, openSteps } from './device';

const UA = {
  iphone175:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  iphone174:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iphone173:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3.1 Mobile/15E148 Safari/604.1',
  iphone16:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_7_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  ipadDesktop:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  pixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  linux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

describe('detectDevice', () => {
  test('iPhones: the one-tap link from iOS 17.4 on, whatever the browser', () => {
    expect(detectDevice(UA.iphone175)).toEqual({ kind: 'ios', oneTap: true });
    expect(detectDevice(UA.iphone174)).toEqual({ kind: 'ios', oneTap: true });
    expect(detectDevice(UA.iphoneChrome)).toEqual({ kind: 'ios', oneTap: true });
    expect(detectDevice(UA.iphone173)).toEqual({ kind: 'ios', oneTap: false });
    expect(detectDevice(UA.iphone16)).toEqual({ kind: 'ios', oneTap: false });
  });

  test('an iPad asking for the desktop site is told from a Mac by its touch screen', () => {
    expect(detectDevice(UA.ipadDesktop, 5)).toEqual({ kind: 'ios', oneTap: true });
    expect(detectDevice(UA.ipadDesktop, 0)).toEqual({ kind: 'desktop' });
  });

  test('Android phones and computers', () => {
    expect(detectDevice(UA.pixel)).toEqual({ kind: 'android' });
    expect(detectDevice(UA.samsung, 5)).toEqual({ kind: 'android' });
    expect(detectDevice(UA.windows)).toEqual({ kind: 'desktop' });
    expect(detectDevice(UA.linux)).toEqual({ kind: 'desktop' });
    expect(detectDevice('')).toEqual({ kind: 'desktop' });
  });
});

describe('installOrder', () => {
  test('what comes first follows the device; every part stays', () => {
    expect(installOrder(detectDevice(UA.iphone175))).toEqual(['oneTap', 'codes', 'steps', 'qr']);
    expect(installOrder(detectDevice(UA.iphone16))).toEqual(['codes', 'steps', 'qr', 'oneTap']);
    expect(installOrder(detectDevice(UA.pixel))).toEqual(['codes', 'steps', 'qr', 'oneTap']);
    expect(installOrder(detectDevice(UA.windows))).toEqual(['qr', 'codes', 'oneTap', 'steps']);
  });

  test('the phone’s own steps are open; a computer opens both', () => {
    expect(openSteps(detectDevice(UA.iphone175))).toEqual(['ios']);
    expect(openSteps(detectDevice(UA.pixel))).toEqual(['android']);
    expect(openSteps(detectDevice(UA.windows))).toEqual(['ios', 'android']);
  });
});
