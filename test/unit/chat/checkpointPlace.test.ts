// Which window may restore (and prune) a checkpoint: only one with the workspace folders its turn ran in.
import { strict as assert } from 'node:assert';
import { checkpointPlace, sameFolders } from '../../../src/core/chat/checkpointPlace';

describe('the window a checkpoint belongs to', () => {
  const projectA = { name: 'project-a', fsPath: '/home/me/project-a' };
  const projectB = { name: 'project-b', fsPath: '/home/me/project-b' };
  const lib = { name: 'lib', fsPath: '/home/me/lib' };

  it('is this window when it has the same folder, and another when its folder differs', () => {
    assert.deepEqual(checkpointPlace([projectA], [projectA]), { kind: 'here' });
    assert.deepEqual(checkpointPlace([projectA], [projectB]), { kind: 'elsewhere', folders: [projectA] });
    // A folder of the same name elsewhere on disk is another project.
    assert.deepEqual(checkpointPlace([projectA], [{ name: 'project-a', fsPath: '/tmp/project-a' }]).kind, 'elsewhere');
    // A window without a folder has nowhere to restore to.
    assert.deepEqual(checkpointPlace([projectA], []).kind, 'elsewhere');
  });

  it('is unknown for a checkpoint recorded before folders were kept', () => {
    assert.deepEqual(checkpointPlace(undefined, [projectA]), { kind: 'unknown' });
    assert.deepEqual(checkpointPlace(undefined, []), { kind: 'unknown' });
  });

  it('needs every folder of a multi-root workspace and no other, in any order, with the names paths start with', () => {
    assert.equal(checkpointPlace([projectA, lib], [lib, projectA]).kind, 'here');
    // A relative path means another file once a folder is added or taken away.
    assert.equal(checkpointPlace([projectA], [projectA, lib]).kind, 'elsewhere');
    assert.equal(checkpointPlace([projectA, lib], [projectA]).kind, 'elsewhere');
    // In a multi-root workspace `lib/x.ts` names the folder called lib: a renamed folder is another place.
    assert.equal(checkpointPlace([projectA, lib], [projectA, { name: 'library', fsPath: lib.fsPath }]).kind, 'elsewhere');
    // With one folder paths carry no name, so its name does not matter.
    assert.equal(checkpointPlace([projectA], [{ name: 'renamed', fsPath: projectA.fsPath }]).kind, 'here');
  });

  it('compares locations as the file system does: a trailing separator is the same folder; case only where the disk ignores it', () => {
    assert.equal(sameFolders([projectA], [{ name: 'project-a', fsPath: '/home/me/project-a/' }], false), true);
    assert.equal(sameFolders([projectA], [{ name: 'project-a', fsPath: '/home/me/Project-A' }], false), false);
    assert.equal(sameFolders([{ name: 'p', fsPath: '/Work/P' }], [{ name: 'p', fsPath: '/work/p' }], true), true);
  });
});
