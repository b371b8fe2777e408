// What "allow edits for this conversation" covers: ordinary source and text files, and nothing else. A file
// whose content can make code run, or steer the tools or later conversations, the moment it is written is
// asked every time, whatever the allowance says, and the card says why. A list of such files always
// misses one (issue #34: eslint.config.mjs, a .pth file, AGENTS.md, CI workflows), so whole kinds are
// asked instead: any path with a segment that starts with a dot (tools' settings and state: .git,
// .vscode, .github, .idea, .venv), installed packages and virtual environments, Python's start-up files,
// tools' configuration scripts (`*.config.*`, `.*rc*`), the instruction files Cadenza reads, CI,
// container and build-wrapper files, package manifests and build files, and anything the ignore files
// ignore (tools' output and local state, which nobody reviews). The names are judged here; whether a path
// is ignored or inside a virtual environment only the host can tell, so it passes that in (PathFacts).
import { nestedInstructionFile, rootInstructionFiles } from '../chat/instructions';
import { isSecretPath, windowsSegments } from '../index/secretFiles';
import type { CautionId, CautionRule, ReadReasonRule } from '../../shared/views';

/** What the host knows of a path that its name does not say. */
export interface PathFacts {
  /** The workspace's ignore files (`.gitignore`, `.cadenzaignore`) ignore it. */
  readonly ignored?: boolean;
  /** A folder above it holds `pyvenv.cfg`: it is inside a Python virtual environment. */
  readonly inVirtualEnv?: boolean;
}

/**
 * One rule: its id (the card shows the catalogue's text of it in the user's language), when it applies to a
 * path's lower-cased segments, and why the file is always asked, in English (with the values its text uses).
 */
interface Rule {
  readonly id: CautionId;
  readonly matches: (segments: readonly string[]) => boolean;
  readonly why: string | ((segments: readonly string[]) => string);
  readonly values?: (segments: readonly string[]) => Readonly<Record<string, string>>;
}

/** Why a file is always asked: the English text, and which reason it is (its id and values) for the card. */
export interface SensitiveReason {
  readonly text: string;
  readonly rule: CautionRule;
}

const last = (segments: readonly string[]): string => segments[segments.length - 1] ?? '';
const anySegment =
  (names: readonly string[]) =>
  (segments: readonly string[]): boolean =>
    segments.some((segment) => names.includes(segment));
const fileNamed =
  (names: readonly string[]) =>
  (segments: readonly string[]): boolean =>
    names.includes(last(segments));
/** Whether `first` is directly followed by one of `next` somewhere in the path (`.github/workflows`). */
const folderPair =
  (first: string, next: readonly string[]) =>
  (segments: readonly string[]): boolean =>
    segments.some((segment, index) => segment === first && next.includes(segments[index + 1] ?? ''));
const dotSegment = (segments: readonly string[]): string | undefined => segments.find((segment) => segment.startsWith('.'));

/** The instruction files Cadenza reads, as lower-cased segments (the nested one counts in any folder). */
const instructionFiles = rootInstructionFiles.map((file) => file.toLowerCase().split('/'));
const endsWith = (segments: readonly string[], tail: readonly string[]): boolean =>
  tail.length <= segments.length && tail.every((part, index) => segments[segments.length - tail.length + index] === part);

const rules: readonly Rule[] = [
  {
    id: 'git',
    matches: anySegment(['.git']),
    why: 'Files under .git can run code: hooks, and settings such as core.fsmonitor that git runs on its next command.',
  },
  {
    id: 'gitSettings',
    matches: fileNamed(['.gitmodules', '.gitattributes']),
    why: 'It tells git which submodules to fetch and which filters and diff drivers to run.',
  },
  { id: 'gitHooks', matches: anySegment(['.githooks', '.husky']), why: 'Git hooks run code on commits and checkouts.' },
  {
    id: 'vscode',
    matches: anySegment(['.vscode']),
    why: 'Workspace settings, tasks and launch configurations change how VS Code behaves, and tasks can run commands when the folder opens.',
  },
  {
    id: 'codeWorkspace',
    matches: (segments) => last(segments).endsWith('.code-workspace'),
    why: 'A workspace file carries settings, tasks and launch configurations for VS Code.',
  },
  { id: 'devContainer', matches: anySegment(['.devcontainer']), why: 'A dev container definition runs commands when the container is built or opened.' },
  {
    id: 'instructions',
    matches: (segments) => last(segments) === nestedInstructionFile.toLowerCase() || instructionFiles.some((file) => endsWith(segments, file)),
    why: 'Cadenza reads it as project instructions: every later conversation in this workspace follows what it says.',
  },
  {
    id: 'ci',
    matches: (segments) =>
      folderPair('.github', ['workflows', 'actions'])(segments) ||
      anySegment(['.circleci', '.buildkite', '.woodpecker'])(segments) ||
      fileNamed([
        '.gitlab-ci.yml',
        'jenkinsfile',
        'azure-pipelines.yml',
        '.travis.yml',
        'bitbucket-pipelines.yml',
        '.drone.yml',
        'appveyor.yml',
        '.woodpecker.yml',
        'cloudbuild.yaml',
        'buildspec.yml',
      ])(segments),
    why: "A CI definition: CI runs the commands it holds on the next push, with the CI's secrets.",
  },
  {
    id: 'container',
    matches: (segments) => /^(dockerfile|containerfile)(\..+)?$|\.(dockerfile|containerfile)$|^(docker-)?compose(\.[^.]+)?\.ya?ml$/.test(last(segments)),
    why: 'A container definition: building or starting the container runs the commands it holds.',
  },
  {
    id: 'buildWrapper',
    matches: (segments) =>
      fileNamed(['gradlew', 'gradlew.bat', 'mvnw', 'mvnw.cmd', '.pnpmfile.cjs', '.pnpmfile.js'])(segments) ||
      anySegment(['.mvn'])(segments) ||
      folderPair('gradle', ['wrapper'])(segments) ||
      folderPair('.yarn', ['releases', 'plugins', 'sdks'])(segments),
    why: "A build wrapper or a package manager's hook: builds and installs run it in place of (or beside) the installed tool, and editors run the Gradle and Maven wrappers when they import the project.",
  },
  {
    id: 'pythonStartup',
    matches: (segments) => last(segments).endsWith('.pth') || fileNamed(['sitecustomize.py', 'usercustomize.py'])(segments),
    why: 'Python runs it at every interpreter start (.pth files in site-packages, sitecustomize and usercustomize), before any of your code.',
  },
  {
    id: 'compiledPython',
    matches: (segments) => last(segments).endsWith('.pyc') || anySegment(['__pycache__'])(segments),
    why: 'Compiled Python: the interpreter runs it in place of the source file beside it.',
  },
  {
    id: 'installedPackages',
    matches: anySegment([
      'node_modules',
      'bower_components',
      'jspm_packages',
      'vendor',
      'site-packages',
      'dist-packages',
      '__pypackages__',
      'venv',
      '.venv',
      'virtualenv',
      '.virtualenvs',
    ]),
    why: 'Installed packages (node_modules, vendor, site-packages, a virtual environment): the project and its tools import and run this code without anyone reading it.',
  },
  {
    id: 'packageManifest',
    matches: fileNamed(['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', 'pnpm-workspace.yaml', 'bunfig.toml', 'deno.json', 'deno.jsonc']),
    why: 'Package manifests and their configuration hold scripts that install, build and test commands run.',
  },
  {
    id: 'buildFile',
    matches: fileNamed([
      'pyproject.toml',
      'setup.py',
      'setup.cfg',
      'tox.ini',
      'noxfile.py',
      'conftest.py',
      'pipfile',
      'requirements.txt',
      'cargo.toml',
      'build.rs',
      'build.gradle',
      'build.gradle.kts',
      'settings.gradle',
      'settings.gradle.kts',
      'pom.xml',
      'gemfile',
      'rakefile',
      'composer.json',
      'go.mod',
      'cmakelists.txt',
      'makefile',
      'gnumakefile',
      'justfile',
      'taskfile.yml',
    ]),
    why: 'A build or package file: the commands that build, install or test the project run what it says.',
  },
  {
    id: 'toolsOnTheirOwn',
    matches: fileNamed([
      '.envrc',
      '.pre-commit-config.yaml',
      '.editorconfig',
      '.mise.toml',
      'mise.toml',
      '.mise.local.toml',
      'mise.local.toml',
      '.tool-versions',
    ]),
    why: 'Tools run or apply it on their own (direnv and mise on entering the folder, pre-commit on commits, editors on every save).',
  },
  {
    // `vite.config.ts`, `webpack.config.babel.js`; `.eslintrc.js`, `.prettierrc`, `.babelrc.cjs`.
    id: 'toolConfig',
    matches: (segments) => last(segments).includes('.config.') || /^\.[^.]*rc(\.[^.]+)?$/.test(last(segments)),
    why: "A tool's configuration (ESLint, Prettier, Jest, Vite, Babel and the like): the tool loads it, running the code it holds, the next time it starts, some in the editor on their own (the ESLint extension on its next lint).",
  },
  {
    // Extension-less files named after their tool (Vagrantfile, Procfile, Podfile, Brewfile, Tiltfile).
    id: 'toolFile',
    matches: (segments) => /^[a-z]+file$/.test(last(segments)),
    why: "A tool's definition file: the tool runs the commands it holds.",
  },
  {
    id: 'dotName',
    matches: (segments) => dotSegment(segments) !== undefined,
    values: (segments) => ({ name: dotSegment(segments) ?? 'A name' }),
    why: (segments) =>
      `${dotSegment(segments) ?? 'A name'} starts with a dot: such files and folders hold tools' and editors' settings and state, which they load and act on by themselves.`,
  },
];

/** The rules' ids in their order (tests: each is its own). */
export const sensitiveRuleIds: readonly CautionId[] = rules.map((rule) => rule.id);

/**
 * Why writing `path` (workspace-relative, `/` or `\\` separated; a multi-root prefix is harmless) is always
 * asked, or undefined for an ordinary source or text file, which the allowance covers. The name decides
 * first; `facts` (what the host knows: ignored, inside a virtual environment) decide a name that says
 * nothing. Case-insensitive, as file systems on macOS and Windows are.
 */
export function sensitivePathCaution(path: string, facts: PathFacts = {}): SensitiveReason | undefined {
  // Windows drops trailing dots and spaces (".git." is .git) and reads "name:stream" as the file "name".
  const segments = path
    .toLowerCase()
    .split(/[\\/]+/)
    .map((segment) => segment.replace(/:.*$/, '').replace(/[. ]+$/, ''))
    .filter((segment) => segment !== '');
  if (segments.length === 0) return undefined;
  const rule = rules.find((entry) => entry.matches(segments));
  if (rule) {
    const text = typeof rule.why === 'string' ? rule.why : rule.why(segments);
    return { text, rule: rule.values ? { id: rule.id, values: rule.values(segments) } : { id: rule.id } };
  }
  if (facts.inVirtualEnv === true)
    return {
      text: "It is inside a Python virtual environment (a folder above it holds pyvenv.cfg): that environment's Python imports and runs these files.",
      rule: { id: 'virtualEnv' },
    };
  if (facts.ignored === true)
    return {
      text: "It is ignored by .gitignore or .cadenzaignore: ignored files are tools' output, installed packages and local settings, which tools load without anyone reviewing a change.",
      rule: { id: 'ignored' },
    };
  return undefined;
}

/** The English text of `sensitivePathCaution`: why writing `path` is always asked, or undefined. */
export function sensitivePathReason(path: string, facts: PathFacts = {}): string | undefined {
  return sensitivePathCaution(path, facts)?.text;
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

/**
 * `secretFileReason` with its id for the card (in the user's language there): `path` as asked, and `target`,
 * where it leads when that is the secret (the English then opens with "path leads to target.").
 */
export function secretFileCaution(path: string, target?: string): { readonly text: string; readonly rule: ReadReasonRule } | undefined {
  const secret = target ?? path;
  const reason = secretFileReason(secret);
  if (reason === undefined) return undefined;
  const name = windowsSegments(secret.toLowerCase()).pop() ?? '';
  return target === undefined
    ? { text: reason, rule: { id: 'secretFile', values: { name } } }
    : { text: `${path} leads to ${target}. ${reason}`, rule: { id: 'secretFile', values: { name, path, target } } };
}
