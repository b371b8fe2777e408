// Process groups of the servers the tiers start (llama-server, the local stack): whether one is still
// alive, and a signal to the whole group. Shared by test/llama/servers.mjs and scripts/local-stack/stack.mjs.
import fs from 'node:fs';

/**
 * True while the group led by `pid` is alive. A killed leader stays a zombie until Node reaps it from its
 * event loop, which a synchronous wait blocks: a zombie leader counts as gone.
 */
export function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Sends `signal` to the whole group led by `pid`; a group already gone is fine. */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
