#!/usr/bin/env node
// Checks the package a user installs (part of `npm test`'s static tier): it runs `npm run package` and
// reads cadenza.vsix itself. The VSIX must hold only what runs (the bundles, media, the manifest and every
// translation, README, CHANGELOG, LICENSE: no tests, fixtures, sources or source maps), stay under 1.5 MB,
// and carry a square PNG icon of 256 px (the galleries draw it at 128). Every image the README shows must exist in the
// repository as a PNG, and stay out of the package: the README's pictures are repository-relative, because
// nothing shows a picture from inside a package (VS Code's extension page allows only https: and data:
// images; the Marketplace and Open VSX render the README on their own sites), so shipping them would be
// dead weight. CHANGELOG.md must keep the Marketplace's headings. Prints one line per check and exits
// non-zero when any fails.
//
//   node scripts/checkPackage.mjs [--no-package]   (--no-package: check the existing cadenza.vsix)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const vsixPath = path.join(root, 'cadenza.vsix');
const maxBytes = 1.5 * 1024 * 1024;

/** The entries of a zip file (a VSIX is one): name, sizes, and a reader for the content. */
export function readZip(buffer) {
  // The end-of-central-directory record is in the last 64 KB + 22 bytes (after an optional comment).
  let end = -1;
  for (let at = buffer.length - 22; at >= Math.max(0, buffer.length - 22 - 0xffff); at--) {
    if (buffer.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file (no end of central directory)');
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error('damaged zip central directory');
    const method = buffer.readUInt16LE(at + 10);
    const compressedSize = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const localOffset = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    const read = () => {
      const dataStart = localOffset + 30 + buffer.readUInt16LE(localOffset + 26) + buffer.readUInt16LE(localOffset + 28);
      const data = buffer.subarray(dataStart, dataStart + compressedSize);
      return method === 8 ? inflateRawSync(data) : Buffer.from(data);
    };
    entries.push({ name, size, read });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Width and height of a PNG, or undefined when the bytes are not a PNG. */
export function pngSize(bytes) {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The images a Markdown file shows: `![alt](path)` and `<img src="path">`, without titles or anchors. */
export function imagesOf(markdown) {
  const found = [];
  for (const match of markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(match[1]);
  for (const match of markdown.matchAll(/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)) found.push(match[1]);
  return found;
}

/** Paths a VSIX may hold (inside `extension/`; media/ only as used, see below), and what must never be there. */
const allowed = [
  /^package\.json$/,
  /^package\.nls(\.[a-z]{2}(-[a-z]+)?)?\.json$/,
  /^l10n\/bundle\.l10n(\.[a-z]{2}(-[a-z]+)?)?\.json$/,
  /^readme\.md$/i,
  /^changelog\.md$/i,
  /^LICENSE(\.txt)?$/,
  /^dist\/[\w.-]+\.(js|css)$/,
  /^media\//,
];
const forbidden = [/\.map$/, /\.ts$/, /(^|\/)(test|tests|src|out|fixtures|node_modules|bench|scripts)\//, /\.vsix$/];

const results = [];
function check(name, problems) {
  results.push({ name, problems });
  process.stdout.write(
    `[package] ${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name}${problems.length ? `\n           ${problems.join('\n           ')}` : ''}\n`,
  );
}

function main() {
  if (!process.argv.includes('--no-package')) {
    const pack = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, encoding: 'utf8' });
    if (pack.status !== 0) {
      process.stdout.write(`${pack.stdout}${pack.stderr}[package] FAIL npm run package exited ${pack.status}\n`);
      process.exit(1);
    }
  }
  const vsix = fs.readFileSync(vsixPath);
  const entries = readZip(vsix);
  const inside = new Map(entries.filter((entry) => entry.name.startsWith('extension/')).map((entry) => [entry.name.slice('extension/'.length), entry]));
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

  const readmeEntry = [...inside.entries()].find(([name]) => name.toLowerCase() === 'readme.md');
  const readme = readmeEntry ? readmeEntry[1].read().toString('utf8') : '';
  const images = imagesOf(readme);
  // A media file ships only when the manifest uses it (icon, view icons, walkthrough pages).
  const used = new Set([...JSON.stringify(manifest).matchAll(/media\/[\w./@-]+/g)].map((match) => match[0]));
  const stray = [...inside.keys()].filter(
    (name) =>
      forbidden.some((pattern) => pattern.test(name)) || !allowed.some((pattern) => pattern.test(name)) || (name.startsWith('media/') && !used.has(name)),
  );
  const outside = entries
    .map((entry) => entry.name)
    .filter((name) => !name.startsWith('extension/') && !['[Content_Types].xml', 'extension.vsixmanifest'].includes(name));
  check(`holds only what runs (${inside.size} files)`, [
    ...stray.map((name) => `should not ship: ${name}`),
    ...outside.map((name) => `unexpected entry: ${name}`),
  ]);
  check(
    'holds the bundles, the manifest, README, CHANGELOG and LICENSE',
    ['dist/extension.js', 'dist/webview.js', 'dist/webview.css', 'package.json', 'readme.md', 'changelog.md', 'LICENSE.txt']
      .filter((name) => ![...inside.keys()].some((have) => have.toLowerCase() === name.toLowerCase()))
      .map((name) => `missing: ${name}`),
  );
  // VS Code reads the translations from the installed extension's folder: a locale missing from the package
  // would show English however complete the repository's file is (scripts/checkL10n.mjs checks the texts).
  const translations = fs
    .readdirSync(root)
    .filter((name) => /^package\.nls(\.[a-z-]+)?\.json$/.test(name))
    .concat(
      fs
        .readdirSync(path.join(root, 'l10n'))
        .filter((name) => name.endsWith('.json'))
        .map((name) => `l10n/${name}`),
    );
  check(
    `holds every translation (${translations.length} files)`,
    translations.filter((name) => !inside.has(name)).map((name) => `missing: ${name}`),
  );
  check(`is under 1.5 MB (${(vsix.length / 1024).toFixed(0)} KB)`, vsix.length < maxBytes ? [] : [`${vsix.length} bytes`]);

  const icon = typeof manifest.icon === 'string' ? inside.get(manifest.icon) : undefined;
  const iconSize = icon ? pngSize(icon.read()) : undefined;
  check(
    `has a 256x256 PNG icon (${manifest.icon})`,
    !icon
      ? [`the manifest's icon ${manifest.icon} is not in the package`]
      : !iconSize
        ? ['the icon is not a PNG']
        : iconSize.width === 256 && iconSize.height === 256
          ? []
          : [`the icon is ${iconSize.width}x${iconSize.height}`],
  );

  const imageProblems = images.length === 0 ? ['the README shows no image'] : [];
  for (const image of images) {
    if (/^[a-z]+:/i.test(image)) {
      imageProblems.push(`not a file of the repository: ${image}`);
      continue;
    }
    const relative = path.posix.normalize(image.replace(/^\.\//, ''));
    const file = path.join(root, relative);
    if (!fs.existsSync(file)) imageProblems.push(`missing in the repository: ${relative}`);
    else if (!pngSize(fs.readFileSync(file))) imageProblems.push(`not a PNG: ${relative}`);
    if (inside.has(relative)) imageProblems.push(`shipped in the package, where nothing can show it: ${relative}`);
  }
  check(`every image the README shows exists in the repository, none in the package (${images.length})`, imageProblems);

  const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  const headings = changelog.split('\n').filter((line) => line.startsWith('## '));
  check('CHANGELOG.md has Marketplace headings ("## Unreleased", "## x.y.z - YYYY-MM-DD", brackets allowed)', [
    ...(headings.length === 0 ? ['no version heading'] : []),
    ...headings
      .filter((line) => !/^## (\[Unreleased\]|Unreleased|\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}|\d+\.\d+\.\d+ - \d{4}-\d{2}-\d{2})$/.test(line))
      .map((line) => `not a Marketplace heading: ${line}`),
  ]);

  const failed = results.filter((result) => result.problems.length > 0).length;
  process.stdout.write(`[package] ${results.length - failed} passed, ${failed} failed\n`);
  process.exit(failed === 0 ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
