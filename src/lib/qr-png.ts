import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

const MARGIN = 2;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * A PNG of a QR code (error correction M, two modules of margin), `width` pixels square: the
 * pixels `qrcode`'s own PNG renderer draws (test/lib/qr-png.test.ts compares them), written as a
 * 1-bit greyscale PNG.
 *
 * Why not `QRCode.toBuffer`: its encoder (pngjs) writes 8-bit RGBA only, 32 times the bytes of
 * one bit per pixel, plus a second buffer for the filtered rows, all short-lived and all on the
 * event loop. The worker renders one per eSIM of every receipt, so a burst of checkouts piled up
 * dead buffers until a collection (docs/performance.md, "Receipt QR codes"). Each module row is
 * drawn once and its pixel rows copied (they are identical), and zlib's default level is used:
 * these two-colour rows compress no better at level 9, only slower. Only the QR matrix comes
 * from the library.
 */
export function qrPng(text: string, width: number): Buffer {
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  // The same geometry as qrcode's renderer (lib/renderer/utils.js, qrToImageData).
  const scale = width / (size + MARGIN * 2);
  const symbolSize = Math.floor((size + MARGIN * 2) * scale);
  const margin = MARGIN * scale;
  const rowBytes = Math.ceil(symbolSize / 8);
  const stride = rowBytes + 1;
  // Each row: filter type 0, then the pixels, 1 = white; rows start all white (0xff). The pixel
  // rows of one module row are alike: the first is drawn, the others are copies of it.
  const raw = Buffer.alloc(stride * symbolSize, 0xff);
  let drawnModuleRow = -1;
  let drawnAt = 0;
  for (let y = 0; y < symbolSize; y++) {
    const row = y * stride;
    raw[row] = 0;
    if (y < margin || y >= symbolSize - margin) continue;
    const moduleRow = Math.floor((y - margin) / scale);
    if (moduleRow === drawnModuleRow) {
      raw.copy(raw, row + 1, drawnAt + 1, drawnAt + stride);
      continue;
    }
    const offset = moduleRow * size;
    for (let x = 0; x < symbolSize; x++) {
      if (x < margin || x >= symbolSize - margin) continue;
      if (data[offset + Math.floor((x - margin) / scale)]) raw[row + 1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    drawnModuleRow = moduleRow;
    drawnAt = row;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(symbolSize, 0);
  header.writeUInt32BE(symbolSize, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale; compression, filter and interlace methods 0
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
