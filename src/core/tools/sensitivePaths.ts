import { isSecretPath, windowsSegments } from '../index/secretFiles';

// Files whose content can make code run, or change how the editor or the tools behave, the moment they
// are written: git's configuration and hooks (`core.fsmonitor` in .git/config runs on the next
// `git status`, which VS Code's git extension runs constantly), the editor's workspace settings and
// tasks (`runOn: folderOpen`), and package manifests' scripts. An agent edit of one of them always asks,
// whatever "allow edits for this conversation" says, and the card says why.

/** One rule: when it applies to a path's lower-cased segments, and why the file is sensitive. */
interface Rule {
  readonly matches: (segments: readonly string[]) => boolean;
  readonly why: string;
}

const last = (segments: readonly string[]): string => segments[segments.length - 1] ?? '';
const anySegment = (names: readonly string[]) => (segments: readonly string[]): boolean => segments.some((segment) => names.includes(segment));
const fileNamed = (names: readonly string[]) => (segments: readonly string[]): boolean => names.includes(last(segments));

const rules: readonly Rule[] = [
  { matches: anySegment(['.git']), why: 'Files under .git can run code: hooks, and settings such as core.fsmonitor that git runs on its next command.' },
  { matches: fileNamed(['.gitmodules', '.gitattributes']), why: 'It tells git which submodules to fetch and which filters and diff drivers to run.' },
  { matches: anySegment(['.githooks', '.husky']), why: 'Git hooks run code on commits and checkouts.' },
  { matches: anySegment(['.vscode']), why: 'Workspace settings, tasks and launch configurations change how VS Code behaves, and tasks can run commands when the folder opens.' },
  { matches: (segments) => last(segments).endsWith('.code-workspace'), why: 'A workspace file carries settings, tasks and launch configurations for VS Code.' },
  { matches: anySegment(['.devcontainer']), why: 'A dev container definition runs commands when the container is built or opened.' },
  {
    matches: fileNamed(['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', 'pnpm-workspace.yaml', 'bunfig.toml', 'deno.json', 'deno.jsonc']),
    why: 'Package manifests and their configuration hold scripts that install, build and test commands run.',
  },
  {
    matches: fileNamed(['pyproject.toml', 'setup.py', 'setup.cfg', 'tox.ini', 'noxfile.py', 'conftest.py', 'pipfile', 'requirements.txt', 'cargo.toml', 'build.rs', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'pom.xml', 'gemfile', 'rakefile', 'composer.json', 'go.mod', 'cmakelists.txt', 'makefile', 'gnumakefile', 'justfile', 'taskfile.yml']),
    why: 'A build or package file: the commands that build, install or test the project run what it says.',
  },
  { matches: fileNamed(['.envrc', '.pre-commit-config.yaml', '.editorconfig']), why: 'Tools run or apply it on their own (direnv on entering the folder, pre-commit on commits, editors on every save).' },
];

/**
 * Why writing `path` (workspace-relative, `/` or `\\` separated; a multi-root prefix is harmless) could
 * make code run or change the editor's behaviour, or undefined for an ordinary file. Case-insensitive,
 * as file systems on macOS and Windows are.
 */
export function sensitivePathReason(path: string): string | undefined {
  // Windows drops trailing dots and spaces (".git." is .git) and reads "name:stream" as the file "name".
  const segments = path.toLowerCase().split(/[\\/]+/).map((segment) => segment.replace(/:.*$/, '').replace(/[. ]+$/, '')).filter((segment) => segment !== '');
  if (segments.length === 0) return undefined;
  return rules.find((rule) => rule.matches(segments))?.why;
}

/**
 * Why a file's name marks it as a likely secret (read_file then asks first when the file is also
 * git-ignored), or undefined. The names are the index's and completions' (core/index/secretFiles.ts);
 * public keys (`id_rsa.pub`) and examples (`.env.example`) are not secrets.
 */
export function secretFileReason(path: string): string | undefined {
  const name = windowsSegments(path.toLowerCase()).pop() ?? '';
  if (name.endsWith('.pub') || /\.(example|sample|template|dist)$/.test(name) || !isSecretPath(path)) return undefined;
  return `${name} is ignored by git and looks like a secret (keys, passwords, tokens): its text would be sent to the service.`;
}
