// The git diff mentions, through the built-in git extension's API (`vscode.git`, API version 1): its
// repository diffs as the Source Control view sees them, without running git ourselves. Only the few
// members used are declared here (the extension ships no types package).
import * as vscode from 'vscode';

/** A ref of the git API (type 0 is a local branch). */
interface GitRef {
  readonly type: number;
  readonly name?: string;
}

/** A changed file of a diff against a ref. */
interface GitChange {
  readonly uri: vscode.Uri;
}

/** The part of the git extension's `Repository` the mentions use. */
export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly HEAD?: { readonly name?: string }; readonly refs?: readonly GitRef[] };
  getRefs?(query: Record<string, never>): Promise<GitRef[]>;
  diff(cached?: boolean): Promise<string>;
  diffWith(ref: string): Promise<GitChange[]>;
  diffWith(ref: string, path: string): Promise<string>;
}

interface GitApi {
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The repository of the active editor's file, else the first one; undefined without git or a repository. */
export async function gitRepository(): Promise<GitRepository | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports.enabled) return undefined;
  const api = exports.getAPI(1);
  const active = vscode.window.activeTextEditor?.document.uri;
  return (active ? api.getRepository(active) : null) ?? api.repositories[0];
}

/** Waits (bounded) for the git extension to open a repository: it scans the workspace after activation. */
export async function waitForRepository(timeoutMs = 10_000): Promise<GitRepository | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const repository = await gitRepository().catch(() => undefined);
    if (repository || Date.now() > until) return repository;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The refs a repository lists (its branches, remote branches and tags), from git itself when the API can ask. */
export async function repositoryRefs(repository: GitRepository): Promise<readonly GitRef[]> {
  return (await repository.getRefs?.({}).catch(() => undefined)) ?? repository.state.refs ?? [];
}

/**
 * The diff a `git` mention names: `unstaged`, `staged`, or `branch:<name>` (the working tree against it).
 * The name reaches `git diff` as an argument, and a mention's id comes from the webview: only a ref the
 * repository lists is used, never one starting with `-`, which git would take as an option
 * (`--output=<file>` writes a file).
 */
export async function gitDiff(id: string): Promise<{ label: string; text: string } | string> {
  const repository = await waitForRepository(id === 'unstaged' || id === 'staged' ? 5_000 : 2_000);
  if (!repository) return vscode.l10n.t('No git repository is open in this workspace (or the built-in Git extension is disabled).');
  if (id === 'unstaged') return { label: 'git diff', text: await repository.diff(false) };
  if (id === 'staged') return { label: 'git diff (staged)', text: await repository.diff(true) };
  if (!id.startsWith('branch:')) return vscode.l10n.t('Unknown git mention: {0}', id);
  const branch = id.slice('branch:'.length);
  const listed = (await repositoryRefs(repository)).some((ref) => ref.name === branch);
  if (branch.startsWith('-') || !listed) return vscode.l10n.t('Not a branch of this repository: {0}', branch);
  const changes = await repository.diffWith(branch);
  const parts: string[] = [];
  for (const change of changes) parts.push(await repository.diffWith(branch, change.uri.fsPath));
  return { label: `git diff ${branch}`, text: parts.join('\n') };
}
