import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, test } from 'vitest';
import { qrPng } from '../../src/lib/qr-png.js';

const LPA = 'LPA:1$rsp.example.com$ABCDEF0123456789ABCDEF0123456789';

/** Dark pixels of a decoded PNG, row by row, as '#' and '.'. */
function darkness(png: Buffer): string[] {
  const image = PNG.sync.read(png);
  const rows: string[] = [];
  for (let y = 0; y < image.height; y++) {
    let row = '';
    for (let x = 0; x < image.width; x++) row += image.data[(y * image.width + x) * 4]! < 128 ? '#' : '.';
    rows.push(row);
  }
  return rows;
}

describe('qrPng', () => {
  test.each([440, 512, 100])('draws the pixels qrcode itself draws at %i px', async (width) => {
    const own = qrPng(LPA, width);
    const reference = await QRCode.toBuffer(LPA, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: 2,
      width,
    });
    const image = PNG.sync.read(own);
    expect([image.width, image.height]).toEqual([width, width]);
    expect(darkness(own)).toEqual(darkness(reference));
  });

  test('every module of the text, dark where the QR matrix is set, with a light two-module margin', () => {
    const modules = QRCode.create(LPA, { errorCorrectionLevel: 'M' }).modules;
    const rows = darkness(qrPng(LPA, 440));
    const scale = 440 / (modules.size + 4);
    for (let row = -2; row < modules.size + 2; row++) {
      for (let col = -2; col < modules.size + 2; col++) {
        const inside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
        const pixel = rows[Math.floor((row + 2.5) * scale)]![Math.floor((col + 2.5) * scale)];
        expect(pixel, `module ${row},${col}`).toBe(inside && modules.get(row, col) ? '#' : '.');
      }
    }
  });

  test('is a small attachment (a few KB)', () => {
    expect(qrPng(LPA, 440).length).toBeLessThan(6 * 1024);
  });
});
