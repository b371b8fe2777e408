#!/usr/bin/env node
// Writes l10n/bundle.l10n.json, the English catalogue of `vscode.l10n.t`, from the host's code: VS Code's own
// extractor (@vscode/l10n-dev) reads every l10n.t call in src/host, the panel's texts (src/shared/panelStrings.ts,
// which the host translates for the webview) are added, then the keys of that bundle and of each
// translation are sorted (so two branches that add messages merge without conflicts in unrelated lines).
// Translations are not changed otherwise: `node scripts/checkL10n.mjs` says which keys they lack or no longer need.
//
//   npm run l10n:export
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTypeScript } from './checkL10n.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const l10nDir = path.join(root, 'l10n');

/** A JSON file's object with its keys sorted, written as Prettier writes JSON (two spaces, a final newline). */
function writeSorted(file, value) {
  const sorted = Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
}

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-l10n-'));
try {
  const cli = path.join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
  execFileSync(process.execPath, [cli, 'export', '--outDir', out, path.join(root, 'src', 'host')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const english = JSON.parse(fs.readFileSync(path.join(out, 'bundle.l10n.json'), 'utf8'));
  const { panelStrings } = await importTypeScript(path.join(root, 'src', 'shared', 'panelStrings.ts'));
  for (const text of Object.values(panelStrings)) english[text] = text;
  writeSorted(path.join(l10nDir, 'bundle.l10n.json'), english);
  for (const name of fs.readdirSync(l10nDir).filter((entry) => /^bundle\.l10n\.[a-z-]+\.json$/.test(entry)))
    writeSorted(path.join(l10nDir, name), JSON.parse(fs.readFileSync(path.join(l10nDir, name), 'utf8')));
  process.stdout.write(`[l10n] ${Object.keys(english).length} messages of src/host and the panel written to l10n/bundle.l10n.json\n`);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
