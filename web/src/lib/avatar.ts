export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const AVATAR_MAX_BYTES = 1_500_000;

export type AvatarCheck = { ok: true } | { ok: false; reason: 'type' | 'size' };

/** The API's avatar rules, checked before reading the file so the user learns at once. */
export function checkAvatarFile(file: { type: string; size: number }): AvatarCheck {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return { ok: false, reason: 'type' };
  if (file.size > AVATAR_MAX_BYTES) return { ok: false, reason: 'size' };
  return { ok: true };
}

export function readAsDataUri(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    // readAsDataURL always yields a string; anything else is a failed read.
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('read failed'));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
