import * as vscode from 'vscode';
import type { ImageAttachment } from '../../shared/protocol';

/** The image types the service takes as data URLs (docs/service.md#images), and a size cap. */
const imageTypes: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };
export const maxImageBytes = 20 * 1024 * 1024;

/** Sniffs an image type from its first bytes; the file name is not trusted. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const at = (index: number): number => bytes[index] ?? -1;
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return 'image/png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46) return 'image/gif';
  if (at(0) === 0x52 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x46 && at(8) === 0x57 && at(9) === 0x45 && at(10) === 0x42 && at(11) === 0x50)
    return 'image/webp';
  return undefined;
}

/** Checks bytes and builds the attachment, or says what is wrong. */
export function imageFromBytes(name: string, bytes: Uint8Array): ImageAttachment | string {
  if (bytes.byteLength > maxImageBytes) return `${name} is ${(bytes.byteLength / 1048576).toFixed(1)} MB; images can be at most 20 MB.`;
  const mime = sniffImage(bytes);
  if (!mime) return `${name} is not a PNG, JPEG, WebP or GIF image.`;
  return { name, dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`, bytes: bytes.byteLength };
}

/** Checks an image the webview read from a drop or paste (its data URL is untrusted). */
export function checkDataUrl(image: ImageAttachment): ImageAttachment | string {
  const match = /^data:image\/[a-z+.-]+;base64,([A-Za-z0-9+/]*={0,2})$/.exec(image.dataUrl);
  if (!match?.[1]) return `${image.name} is not a base64 image.`;
  return imageFromBytes(image.name, Buffer.from(match[1], 'base64'));
}

/** Asks for an image file and returns it checked and encoded, or an error message, or undefined. */
export async function pickImage(): Promise<ImageAttachment | string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: vscode.l10n.t('Attach image'),
    filters: { [vscode.l10n.t('Images')]: Object.keys(imageTypes) },
  });
  const uri = picked?.[0];
  if (!uri) return undefined;
  const stat = await vscode.workspace.fs.stat(uri);
  const name = uri.path.split('/').pop() ?? 'image';
  if (stat.size > maxImageBytes) return `${name} is ${(stat.size / 1048576).toFixed(1)} MB; images can be at most 20 MB.`;
  return imageFromBytes(name, await vscode.workspace.fs.readFile(uri));
}
