import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/logger';

/** The part of the built-in git extension's API (`vscode.git`, getAPI(1)) that is read here. */
interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri?: vscode.Uri;
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly workingTreeChanges: readonly GitChange[];
    readonly indexChanges: readonly GitChange[];
    readonly mergeChanges: readonly GitChange[];
    readonly untrackedChanges?: readonly GitChange[];
  };
  status?(): Promise<void>;
}
interface GitApi {
  readonly repositories: readonly GitRepository[];
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

const inside = (root: string, file: string): boolean => {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

async function fromGitExtension(folder: string): Promise<Set<string> | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports.enabled) return undefined;
  const repository = exports.getAPI(1).repositories.find((repo) => inside(repo.rootUri.fsPath, folder) || inside(folder, repo.rootUri.fsPath));
  if (!repository) return undefined;
  // The extension refreshes on its own file watcher with a delay; ask for a fresh status first.
  await repository.status?.().catch(() => undefined);
  const files = new Set<string>();
  const { workingTreeChanges, indexChanges, mergeChanges, untrackedChanges } = repository.state;
  for (const change of [...workingTreeChanges, ...indexChanges, ...mergeChanges, ...(untrackedChanges ?? [])]) {
    files.add(change.uri.fsPath);
    if (change.originalUri) files.add(change.originalUri.fsPath);
  }
  return files;
}

function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // No fsmonitor hook, no pager, no prompts: git runs no program the repository's config names.
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '--no-optional-locks', ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 10_000, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(stdout);
      },
    );
  });
}

/** `git status --porcelain=v1 -z`: entries are "XY path", a rename's original path follows as its own entry. */
export function parsePorcelain(output: string, root: string): Set<string> {
  const files = new Set<string>();
  const entries = output.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (entry.length < 4) continue;
    files.add(path.join(root, ...entry.slice(3).split('/')));
    if (entry[0] === 'R' || entry[0] === 'C') {
      const original = entries[++i];
      if (original) files.add(path.join(root, ...original.split('/')));
    }
  }
  return files;
}

async function fromGitCommand(folder: string): Promise<Set<string> | undefined> {
  try {
    const root = (await git(folder, ['rev-parse', '--show-toplevel'])).trim();
    return parsePorcelain(await git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all']), root);
  } catch {
    return undefined;
  }
}

/**
 * The files of `folder` the developer changed and has not committed (modified, staged, added,
 * untracked, deleted, renamed: absolute paths), from the built-in git extension; without it, from
 * `git status` itself, only in a trusted workspace (a cloned repository's config could otherwise name
 * programs for git to run) and with the fsmonitor and hooks switched off. Undefined when neither can
 * tell (no git, not a repository): the caller then cannot override the team's copies.
 */
export async function uncommittedFiles(folder: string, logger: Logger): Promise<Set<string> | undefined> {
  try {
    const fromExtension = await fromGitExtension(folder);
    if (fromExtension) return fromExtension;
  } catch (error) {
    logger.debug(`The git extension could not report changes: ${String(error)}`);
  }
  if (!vscode.workspace.isTrusted) return undefined;
  return fromGitCommand(folder);
}
