#!/usr/bin/env node
// Activation cost of the bundled extension and the size of the packaged .vsix (issue 4's figures).
// Code loading and activate() are timed in plain Node with a minimal stand-in for the `vscode` module
// (only what activate() touches): it measures our bundle's own cost, not the editor's. Each sample runs
// in a fresh process so module caches do not flatter the numbers. Prints figures; asserts nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = Number(process.env.SAMPLES ?? 15);

if (!existsSync(join(root, 'dist', 'extension.js')) || process.env.REBUILD !== '0') {
  execFileSync('node', ['esbuild.js', '--production'], { cwd: root, stdio: 'inherit' });
}

// The names the real vscode module exports (enums, classes, namespaces), read from its type declarations.
const declarations = readFileSync(join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
const apiNames = [...new Set([...declarations.matchAll(/^\s*export (?:enum|class|namespace|const) (\w+)/gm)].map((match) => match[1]))];

const probe = `
const Module = require('module');
const noop = () => ({ dispose() {} });
const event = () => noop;
class EventEmitter { constructor() { this.event = () => ({ dispose() {} }); } fire() {} dispose() {} }
// Anything activate() or module initialisation touches that is not spelled out below (enums, event
// registrations, disposables) is answered by a permissive proxy: callable, constructible, any property.
const anything = new Proxy(function () {}, {
  get: (_target, property) => (property === Symbol.toPrimitive ? () => 0 : property === 'then' ? undefined : anything),
  apply: () => anything,
  construct: () => anything,
});
const known = {
  version: '1.104.0', EventEmitter,
  Uri: { joinPath: (base, ...parts) => ({ fsPath: [base.fsPath, ...parts].join('/'), path: [base.fsPath, ...parts].join('/') }) },
  StatusBarAlignment: { Left: 1, Right: 2 }, ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  window: { createOutputChannel: () => ({ info() {}, warn() {}, error() {}, debug() {}, trace() {}, dispose() {} }),
    createStatusBarItem: () => ({ show() {}, dispose() {} }), registerWebviewViewProvider: noop },
  workspace: { onDidChangeConfiguration: event(), registerTextDocumentContentProvider: noop,
    getConfiguration: () => ({ get: (_key, fallback) => fallback }) },
  commands: { registerCommand: noop, executeCommand: async () => undefined },
};
// esbuild's CommonJS interop copies the module's own keys, so every name the real API exports must be one.
for (const name of ${JSON.stringify(apiNames)}) if (!(name in known)) known[name] = anything;
const withFallback = (object) => new Proxy(object, { get: (target, property) => (property in target ? (typeof target[property] === 'object' && target[property] !== null && !Array.isArray(target[property]) ? withFallback(target[property]) : target[property]) : anything) });
const stub = withFallback(known);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
const t0 = performance.now();
const extension = require(${JSON.stringify(join(root, 'dist', 'extension.js'))});
const t1 = performance.now();
const secrets = { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: event() };
const memento = { get: () => undefined, update: async () => {} };
extension.activate({ subscriptions: [], secrets, globalState: memento, workspaceState: memento, extensionMode: 1,
  extensionUri: { fsPath: '/tmp/cadenza' }, globalStorageUri: { fsPath: '/tmp/cadenza-storage' }, extension: { packageJSON: { version: '0' } } });
const t2 = performance.now();
process.stdout.write(JSON.stringify({ load: t1 - t0, activate: t2 - t1 }));
`;

const loads = [];
const activates = [];
for (let i = 0; i < samples; i += 1) {
  const result = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    process.exit(1);
  }
  const { load, activate } = JSON.parse(result.stdout);
  loads.push(load);
  activates.push(activate);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bundle = statSync(join(root, 'dist', 'extension.js')).size;
console.log(`activation (Node ${process.version}, ${samples} fresh processes, median):`);
console.log(`  code loading of dist/extension.js (${(bundle / 1024).toFixed(0)} KB): ${median(loads).toFixed(1)} ms`);
console.log(`  activate() call:                         ${median(activates).toFixed(1)} ms`);
console.log(`  total:                                   ${(median(loads) + median(activates)).toFixed(1)} ms   (goal < 50 ms)`);

if (process.env.PACKAGE !== '0') {
  execFileSync('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '-o', 'cadenza.vsix'], { cwd: root, stdio: 'ignore' });
  const vsix = statSync(join(root, 'cadenza.vsix')).size;
  console.log(`vsix: cadenza.vsix ${(vsix / 1024).toFixed(0)} KB (${(vsix / 1048576).toFixed(2)} MB; goal < 1.5 MB)`);
}
