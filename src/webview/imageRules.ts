/**
 * What the panel accepts as an image before asking the host to check it. Pure (no DOM): unit-tested
 * in plain Node. The host checks again (it sniffs the bytes); this only spares a pointless round trip.
 */
import { formatFixed } from '../shared/numbers';
import { locale, t } from './l10n';

/** The image types the service accepts. */
export const acceptedImageTypes: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** The largest image the service accepts, in bytes. */
export const maxImageBytes = 20 * 1024 * 1024;

/** Why an image cannot be attached, or undefined when it can. */
export function imageProblem(type: string, bytes: number): string | undefined {
  if (!acceptedImageTypes.includes(type.toLowerCase())) {
    return type ? t('imageTypesThisOne', { type }) : t('imageTypes');
  }
  if (bytes > maxImageBytes) return t('imageTooLarge', { size: formatBytes(bytes) });
  if (bytes === 0) return t('imageEmpty');
  return undefined;
}

/** A byte count for people, in the panel's language: `512 B`, `3.4 KB`, `12.0 MB` (en), `3,4 KB` (de). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatFixed(bytes, 0, locale())} B`;
  if (bytes < 1024 * 1024) return `${formatFixed(bytes / 1024, 1, locale())} KB`;
  return `${formatFixed(bytes / (1024 * 1024), 1, locale())} MB`;
}
