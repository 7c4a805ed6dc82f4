import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, test } from 'vitest';
import { qrPng } from '../../src/lib/qr-png.js';

describe('qrPng', () => {
  test('draws exactly the QR modules of the text, with a two-module margin, at the width asked', async () => {
    const text = 'LPA:1$rsp.example.com$ABCDEF0123456789ABCDEF0123456789';
    const modules = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
    const image = PNG.sync.read(await qrPng(text, 440));
    expect([image.width, image.height]).toEqual([440, 440]);

    const scale = 440 / (modules.size + 4);
    const dark = (x: number, y: number) => image.data[(y * image.width + x) * 4]! < 128;
    // The centre pixel of every module, and of the margin.
    for (let row = -2; row < modules.size + 2; row++) {
      for (let col = -2; col < modules.size + 2; col++) {
        const inside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
        const expected = inside && modules.get(row, col) === 1;
        const x = Math.floor((col + 2.5) * scale);
        const y = Math.floor((row + 2.5) * scale);
        expect(dark(x, y), `module ${row},${col}`).toBe(expected);
      }
    }
  });

  test('stays a small attachment (a few KB)', async () => {
    const png = await qrPng('LPA:1$rsp.example.com$ABCDEF0123456789ABCDEF0123456789', 440);
    expect(png.length).toBeLessThan(6 * 1024);
  });
});
