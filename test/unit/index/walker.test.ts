import * as assert from 'node:assert/strict';
import { symlinkSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { expandBraces, excludesToRules, globToGitignore } from '../../../src/core/index/excludeGlobs';
import { IgnoreRules } from '../../../src/core/index/ignoreRules';
import { newWalkStats, walkWorkspace, type WalkEntry, type WalkOptions } from '../../../src/core/index/walker';
import { CollectingLogger, Fixture } from './helpers';

async function walk(options: WalkOptions): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of walkWorkspace(options)) out.push(entry.relPath);
  return out;
}

describe('index/excludeGlobs', () => {
  it('expands nested braces', () => {
    assert.deepEqual(expandBraces('**/{a,b{c,d}}.ts'), ['**/a.ts', '**/bc.ts', '**/bd.ts']);
    assert.deepEqual(expandBraces('plain'), ['plain']);
  });

  it('anchors root-relative globs and keeps **/ globs unanchored', () => {
    assert.deepEqual(globToGitignore('**/node_modules'), ['**/node_modules']);
    assert.deepEqual(globToGitignore('docs/*.md'), ['/docs/*.md']);
    assert.deepEqual(globToGitignore('./tmp'), ['/tmp']);
    assert.deepEqual(globToGitignore('/abs/path'), []);
  });

  it('takes true entries, skips false ones and keeps when-conditions apart', () => {
    const rules = excludesToRules({ '**/.git': true, '**/*.log': false, '**/*.js': { when: '$(basename).ts' }, '{gen,tmp}/**': true });
    assert.deepEqual(rules.rules, ['**/.git', '/gen/**', '/tmp/**']);
    assert.deepEqual(rules.conditional, [{ rules: ['**/*.js'], when: '$(basename).ts' }]);
  });
});

describe('index/walker', () => {
  let fx: Fixture;
  afterEach(() => fx.dispose());

  it('honours nested .gitignore with negation and anchoring, deeper files winning', async () => {
    fx = new Fixture({
      '.gitignore': '*.log\n/rooted.txt\nsecret/\n',
      'a.ts': 'a',
      'x.log': 'log',
      'rooted.txt': 'r',
      'secret/s.ts': 's',
      'sub/.gitignore': '!keep.log\nlocal.ts\n',
      'sub/keep.log': 'k',
      'sub/drop.log': 'd',
      'sub/rooted.txt': 'not anchored here',
      'sub/local.ts': 'l',
      'sub/b.ts': 'b',
      'other/local.ts': 'only ignored under sub',
    });
    const files = await walk({ roots: [{ name: 'w', path: fx.root }] });
    assert.deepEqual(files.sort(), ['.gitignore', 'a.ts', 'other/local.ts', 'sub/.gitignore', 'sub/b.ts', 'sub/keep.log', 'sub/rooted.txt']);
  });

  it('lets .cadenzaignore override .gitignore, and exclude settings override both', async () => {
    fx = new Fixture({
      '.gitignore': 'generated/\n',
      '.cadenzaignore': '!generated/\nnotes.md\n',
      'generated/api.ts': 'g',
      'notes.md': 'n',
      'src/a.ts': 'a',
      'src/a.spec.ts': 's',
      'docs/x.md': 'x',
    });
    const files = await walk({ roots: [{ name: 'w', path: fx.root }], excludes: { '**/*.spec.ts': true, docs: true, '**/a.ts': false } });
    assert.deepEqual(files.sort(), ['.cadenzaignore', '.gitignore', 'generated/api.ts', 'src/a.ts']);
  });

  it('judges files in a re-included folder by their own rules, across nested ignore files', async () => {
    fx = new Fixture({
      '.gitignore': 'generated/\n*.log\nx/y/\n',
      '.cadenzaignore': '!generated/\n',
      'generated/api.ts': 'g',
      'generated/debug.log': 'l',
      'x/.gitignore': '!y/\n',
      'x/y/z.ts': 'z',
      'x/y/z.log': 'l',
    });
    const files = await walk({ roots: [{ name: 'w', path: fx.root }] });
    assert.deepEqual(files.sort(), ['.cadenzaignore', '.gitignore', 'generated/api.ts', 'x/.gitignore', 'x/y/z.ts']);
  });

  it('skips generated folders, lock files and minified bundles by default; an ignore file can bring one back', async () => {
    fx = new Fixture({
      'node_modules/x/index.js': 'x',
      'dist/out.js': 'o',
      '.git/config': 'c',
      'build/b.js': 'b',
      'package-lock.json': '{}',
      'app.min.js': 'm',
      'src/index.ts': 'i',
      '.cadenzaignore': '!build/\n',
    });
    const files = await walk({ roots: [{ name: 'w', path: fx.root }] });
    assert.deepEqual(files.sort(), ['.cadenzaignore', 'build/b.js', 'src/index.ts']);
  });

  it('skips files over the size limit and binary extensions, counting why', async () => {
    fx = new Fixture({ 'big.ts': 'x'.repeat(2000), 'small.ts': 'y', 'logo.png': 'png' });
    const stats = newWalkStats();
    const files = await walk({ roots: [{ name: 'w', path: fx.root }], maxFileBytes: 1000, stats });
    assert.deepEqual(files, ['small.ts']);
    assert.equal(stats.skipped.tooLarge, 1);
    assert.equal(stats.skipped.binaryExtension, 1);
  });

  it('applies when-conditions against sibling files', async () => {
    fx = new Fixture({ 'a.ts': 'a', 'a.js': 'compiled', 'b.js': 'hand written' });
    const files = await walk({ roots: [{ name: 'w', path: fx.root }], excludes: { '**/*.js': { when: '$(basename).ts' } } });
    assert.deepEqual(files.sort(), ['a.ts', 'b.js']);
  });

  it('walks several roots and prefixes keys with the root name', async () => {
    fx = new Fixture({ 'one/a.ts': 'a', 'two/b.ts': 'b' });
    const entries: WalkEntry[] = [];
    for await (const e of walkWorkspace({
      roots: [
        { name: 'one', path: fx.path('one') },
        { name: 'two', path: fx.path('two') },
      ],
    }))
      entries.push(e);
    assert.deepEqual(
      entries.map((e) => e.key),
      ['one/a.ts', 'two/b.ts'],
    );
  });

  it('survives a symlink loop and symlinks to folders already walked', async function () {
    fx = new Fixture({ 'src/a.ts': 'a', 'src/deep/b.ts': 'b' });
    try {
      symlinkSync(fx.path('src'), fx.path('src/deep/loop'), 'dir');
      symlinkSync(fx.path('nowhere'), fx.path('src/dangling'), 'file');
    } catch {
      this.skip(); // no symlink permission (Windows without developer mode)
    }
    const stats = newWalkStats();
    const files = await walk({ roots: [{ name: 'w', path: fx.root }], stats });
    assert.deepEqual(files.sort(), ['src/a.ts', 'src/deep/b.ts']);
    assert.ok((stats.skipped.symlinkLoop ?? 0) >= 1);
  });

  it('skips file and folder links, relative and absolute, whose real path leaves the workspace folder, counting them', async function () {
    // The workspace is fx/ws; fx/home stands for the user's home (~/.ssh, ~/.aws) next to it.
    fx = new Fixture({ 'home/.ssh/id_rsa': 'PRIVATE KEY', 'home/.aws/credentials': 'SECRET', 'ws/src/a.ts': 'a', 'ws/docs/in.md': 'inside' });
    try {
      symlinkSync('../../home/.ssh', fx.path('ws/src/ssh'), 'dir'); // relative folder link
      symlinkSync(fx.path('home/.aws'), fx.path('ws/aws'), 'dir'); // absolute folder link
      symlinkSync('../home/.aws/credentials', fx.path('ws/notes.txt'), 'file'); // relative file link
      symlinkSync(fx.path('home/.ssh/id_rsa'), fx.path('ws/src/key.txt'), 'file'); // absolute file link
      symlinkSync('..', fx.path('ws/up'), 'dir'); // the folder above the workspace
      symlinkSync('docs', fx.path('ws/docs-link'), 'dir'); // inside: followed (here a folder already walked)
      symlinkSync('docs/in.md', fx.path('ws/in-link.md'), 'file'); // inside: still followed
    } catch {
      this.skip(); // no symlink permission (Windows without developer mode)
    }
    const stats = newWalkStats();
    const logger = new CollectingLogger();
    const files = await walk({ roots: [{ name: 'w', path: fx.path('ws') }], stats, logger });
    assert.deepEqual(files.sort(), ['docs/in.md', 'in-link.md', 'src/a.ts']); // docs-link is the folder already walked
    assert.equal(stats.skipped.outsideWorkspace, 5);
  });

  it('does not walk below a changed folder that is a link out of the workspace', async function () {
    fx = new Fixture({ 'home/.ssh/id_rsa': 'PRIVATE KEY', 'ws/a.ts': 'a' });
    try {
      symlinkSync('../home/.ssh', fx.path('ws/ssh'), 'dir');
    } catch {
      this.skip();
    }
    const stats = newWalkStats();
    const files = await walk({ roots: [{ name: 'w', path: fx.path('ws') }], below: 'ssh', stats });
    assert.deepEqual(files, []);
    assert.equal(stats.skipped.outsideWorkspace, 1);
  });

  it('walks a workspace folder that is itself reached through a link', async function () {
    fx = new Fixture({ 'real/a.ts': 'a', 'real/sub/b.ts': 'b' });
    try {
      symlinkSync(fx.path('real'), fx.path('alias'), 'dir');
      symlinkSync('sub', fx.path('real/sub-link'), 'dir');
    } catch {
      this.skip();
    }
    const stats = newWalkStats();
    const files = await walk({ roots: [{ name: 'w', path: fx.path('alias') }], stats });
    assert.deepEqual(files.sort(), ['a.ts', 'sub/b.ts']); // sub-link is the folder already walked
    assert.equal(stats.skipped.outsideWorkspace ?? 0, 0);
  });

  it('tolerates files deleted during the walk', async () => {
    fx = new Fixture({ 'a/1.ts': '1', 'a/2.ts': '2', 'b/3.ts': '3', 'b/4.ts': '4' });
    const stats = newWalkStats();
    const seen: string[] = [];
    for await (const entry of walkWorkspace({ roots: [{ name: 'w', path: fx.root }], stats })) {
      seen.push(entry.relPath);
      if (entry.relPath === 'a/1.ts') fx.remove('b');
    }
    assert.deepEqual(seen, ['a/1.ts', 'a/2.ts']);
    assert.equal(stats.skipped.vanished, 1);
  });

  it('logs and skips a folder it may not read', async () => {
    fx = new Fixture({ 'open/a.ts': 'a', 'locked/b.ts': 'b' });
    const logger = new CollectingLogger();
    // chmod 000 does not stop root (tests run as root in CI), so the folder listing fails the way the
    // kernel fails it for an ordinary user: an EACCES error from readdir.
    const listDirectory = async (path: string): Promise<Dirent[]> => {
      if (path.endsWith('locked')) throw Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), { code: 'EACCES' });
      return readdir(path, { withFileTypes: true });
    };
    const files = await walk({ roots: [{ name: 'w', path: fx.root }], logger, listDirectory });
    assert.deepEqual(files, ['open/a.ts']);
    assert.ok(logger.has('warn', /Cannot list/));
  });

  it('stops when the signal aborts', async () => {
    fx = new Fixture({ 'a.ts': 'a', 'b/c.ts': 'c', 'd/e.ts': 'e' });
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const entry of walkWorkspace({ roots: [{ name: 'w', path: fx.root }], signal: controller.signal })) {
      seen.push(entry.relPath);
      controller.abort();
    }
    assert.deepEqual(seen, ['a.ts']);
  });

  it('answers for single paths, checking every folder above them', async () => {
    fx = new Fixture({ '.gitignore': 'gen/\n', 'gen/x/y.ts': 'y', 'src/.gitignore': '*.tmp\n', 'src/a.tmp': 't' });
    const rules = new IgnoreRules(fx.root);
    assert.equal(await rules.isPathIgnored('gen/x/y.ts', false), true);
    assert.equal(await rules.isPathIgnored('src/a.tmp', false), true);
    assert.equal(await rules.isPathIgnored('src/a.ts', false), false);
    assert.equal(await rules.isPathIgnored('node_modules/p/i.js', false), true);
  });
});
