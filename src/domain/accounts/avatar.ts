import { AppError } from '../errors.js';

/** "About 1.5 MB" in the specification, counted on the decoded image bytes. */
export const AVATAR_MAX_BYTES = 1_500_000;

export type AvatarType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

/** Leading bytes each allowed format must start with; the declared type must match them. */
const SIGNATURES: Record<AvatarType, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const DATA_URI = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/i;

function invalid(message: string): AppError {
  return new AppError('VALIDATION_ERROR', `avatarUrl ${message}`, {
    issues: [{ field: 'avatarUrl', message }],
  });
}

/**
 * Decodes and checks an avatar data URI: PNG, JPEG, WebP or GIF only, at most 1.5 MB decoded,
 * and the bytes must really be the declared format (a script labelled image/png is refused).
 */
export function parseAvatarDataUri(dataUri: string): { contentType: AvatarType; bytes: Buffer } {
  const match = DATA_URI.exec(dataUri.trim());
  if (!match) throw invalid('must be a base64 data URI (data:image/…;base64,…)');
  const declared = match[1]!.toLowerCase() === 'image/jpg' ? 'image/jpeg' : match[1]!.toLowerCase();
  if (!(declared in SIGNATURES)) throw invalid('must be image/png, image/jpeg, image/webp or image/gif');
  const contentType = declared as AvatarType;
  const base64 = match[2]!;
  // Checked before decoding so an oversized upload is never materialised twice.
  if (Math.floor((base64.length * 3) / 4) - (base64.match(/=+$/)?.[0].length ?? 0) > AVATAR_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `avatarUrl is larger than ${AVATAR_MAX_BYTES} bytes decoded`);
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw invalid('is empty');
  if (!SIGNATURES[contentType](bytes)) throw invalid(`content is not a ${contentType} image`);
  return { contentType, bytes };
}
