import QRCode from 'qrcode';

/**
 * A PNG of a QR code (error correction M, two modules of margin), `width` pixels square.
 *
 * pngjs, qrcode's PNG encoder, by default filters every row all five ways and keeps the one that
 * compresses best. A QR code's rows are runs of two colours, for which the Paeth filter alone
 * gives the same size (3.2 KB at 440 px) in less than half the CPU: 4.2 against 9.5 ms at 440 px,
 * 5.6 against 12 ms at 512, all of it blocking the event loop (docs/performance.md, "Receipt QR
 * codes"). `filterType` is pngjs' option; qrcode passes `rendererOpts` through to it.
 */
export function qrPng(text: string, width: number): Promise<Buffer> {
  return QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 2,
    width,
    rendererOpts: { filterType: 4 },
  } as QRCode.QRCodeToBufferOptions);
}
