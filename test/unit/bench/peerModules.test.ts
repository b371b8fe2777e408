import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPeerModules, PeerModulesMissing } from '../../../bench/localIndex/peerModules';

/** A folder standing in for bench/localIndex/peers, with a package.json and, for each name given, a module exporting `exports`. */
function peersFolder(modules: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cadenza-peers-test-'));
  writeFileSync(join(dir, 'package.json'), '{"name":"peers","private":true}');
  for (const [name, exports] of Object.entries(modules)) {
    mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    writeFileSync(join(dir, 'node_modules', name, 'index.js'), `module.exports = ${exports};`);
  }
  return dir;
}

/** The error loadPeerModules throws for `dir`, or a failure when it loads. */
function missingFrom(dir: string): PeerModulesMissing {
  try {
    loadPeerModules(dir);
  } catch (error) {
    assert.ok(error instanceof PeerModulesMissing, `a PeerModulesMissing, not ${String(error)}`);
    return error;
  }
  assert.fail('loaded libraries that are not there');
}

describe('bench/localIndex/indexPeers: its native libraries', () => {
  const made: string[] = [];
  const folder = (modules: Readonly<Record<string, string>>): string => {
    const dir = peersFolder(modules);
    made.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('says which are missing, why npm ci left them out, and the command that installs them and runs the bench', () => {
    const error = missingFrom(folder({}));
    assert.deepEqual(error.missing, ['hnswlib-node', 'simsimd', 'usearch']);
    assert.match(error.message, /not installed: hnswlib-node, simsimd, usearch\./);
    assert.match(error.message, /node-gyp, which needs a C\+\+ toolchain/);
    assert.match(error.message, /npm run bench:peers/);
    assert.match(error.message, /npm install --prefix bench\/localIndex\/peers/);
    assert.match(error.message, /hnswlib-node: Cannot find module 'hnswlib-node'/);
  });

  it('names only the ones absent when some are installed', () => {
    const error = missingFrom(folder({ 'hnswlib-node': '{ HierarchicalNSW: class {} }', simsimd: '{ dot: () => 0 }' }));
    assert.deepEqual(error.missing, ['usearch']);
    assert.match(error.message, /not installed: usearch\./);
  });

  it("loads them from the bench's own package folder", () => {
    const peers = loadPeerModules(
      folder({
        'hnswlib-node': '{ HierarchicalNSW: class {} }',
        simsimd: '{ dot: (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0) }',
        usearch: '{ Index: class {}, MetricKind: { IP: "ip", Cos: "cos" }, ScalarKind: { F32: "f32", I8: "i8" }, exactSearch: () => ({}) }',
      }),
    );
    assert.equal(peers.simsimd.dot(new Float32Array([1, 2]), new Float32Array([3, 4])), 11);
    assert.equal(peers.usearch.MetricKind.IP, 'ip');
  });
});
