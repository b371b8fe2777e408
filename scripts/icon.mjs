#!/usr/bin/env node
// `npm run icon`: renders the gallery icon media/icon.svg into the PNGs the Marketplace and Open VSX show
// (they take no SVG icon): media/icon.png (256x256, the manifest's `icon`: sharp on high-density screens
// where the galleries draw it at 128) and media/icon-128.png (128x128, the galleries' minimum, for places
// that want that exact size; not packaged). resvg's WebAssembly build: no native module, no
// system library, the same pixels on every machine. The PNGs are committed; run this after changing the SVG.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg, initWasm } from '@resvg/resvg-wasm';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
await initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));

const svg = readFileSync(join(root, 'media', 'icon.svg'), 'utf8');
for (const [size, file] of [
  [256, 'icon.png'],
  [128, 'icon-128.png'],
]) {
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
  writeFileSync(join(root, 'media', file), png);
  process.stdout.write(`media/${file}: ${size}x${size}, ${png.length} bytes\n`);
}
