import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { silentLogger, type Logger } from '../logger';
import { excludesToRules } from './excludeGlobs';

/**
 * Generated and dependency folders, lock files and minified bundles, skipped unless a `.gitignore` or
 * `.cadenzaignore` says otherwise with a `!` rule (they are the weakest rules of all).
 */
export const DEFAULT_GENERATED = [
  'node_modules/',
  'bower_components/',
  'jspm_packages/',
  'dist/',
  'build/',
  'out/',
  'target/',
  'coverage/',
  '.next/',
  '.nuxt/',
  '.svelte-kit/',
  '.angular/',
  '.turbo/',
  '.parcel-cache/',
  '.cache/',
  '.gradle/',
  '.idea/',
  '.vscode-test/',
  '__pycache__/',
  '.pytest_cache/',
  '.mypy_cache/',
  '.ruff_cache/',
  '.tox/',
  '.venv/',
  'venv/',
  '.terraform/',
  '.dart_tool/',
  'Pods/',
  'DerivedData/',
  '.svn/',
  '.hg/',
  'vendor/',
  'obj/',
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'Cargo.lock',
  'poetry.lock',
  'composer.lock',
  'Gemfile.lock',
  '*.min.js',
  '*.min.css',
  '*.map',
  '*.lock',
] as const;

/** The index's own ignore file, stronger than `.gitignore` (like ripgrep's `.ignore`). */
export const CADENZA_IGNORE = '.cadenzaignore';
/** Git's ignore file, honoured in every folder unless `useGitIgnore` is false. */
export const GIT_IGNORE = '.gitignore';

/** Options shared by every root. */
export interface IgnoreOptions {
  /** Merged `files.exclude` and `search.exclude` settings objects. */
  readonly excludes?: Readonly<Record<string, unknown>> | undefined;
  /** Replaces `DEFAULT_GENERATED` (gitignore syntax). */
  readonly generated?: readonly string[] | undefined;
  /** Honour `.gitignore` files (default true, like `search.useIgnoreFiles`). */
  readonly useGitIgnore?: boolean | undefined;
  /** Case-insensitive matching; defaults to the platform's file-system habit. */
  readonly ignoreCase?: boolean | undefined;
  readonly logger?: Logger | undefined;
}

/** The ignore files of one directory, linked to its parent's. */
export interface DirFrame {
  readonly dir: string;
  readonly parent: DirFrame | undefined;
  readonly git: Ignore | undefined;
  readonly cadenza: Ignore | undefined;
}

/**
 * The ignore decision for paths in one root. Precedence, strongest first:
 * 1. `.git` folders, always skipped;
 * 2. the exclude settings (VS Code hides those files everywhere, so no ignore file can bring them back);
 * 3. `.cadenzaignore` files, the deepest one with a verdict (a match or a `!` match) winning;
 * 4. `.gitignore` files, likewise: within a file the last matching line wins, a deeper file beats a
 *    shallower one, and (as in git) nothing inside an ignored folder can be re-included because the
 *    walk never enters it;
 * 5. the generated-folder defaults.
 * Paths are root-relative with `/`; patterns in a nested ignore file are relative to its folder.
 */
export class IgnoreRules {
  private readonly frames = new Map<string, Promise<DirFrame>>();
  private readonly excludes: Ignore;
  private readonly conditional: { ig: Ignore; when: string }[];
  private readonly generated: Ignore;
  private readonly ignoreCase: boolean;
  private readonly logger: Logger;

  constructor(
    readonly rootPath: string,
    private readonly options: IgnoreOptions = {},
  ) {
    this.ignoreCase = options.ignoreCase ?? (process.platform === 'win32' || process.platform === 'darwin');
    this.logger = options.logger ?? silentLogger;
    const fromSettings = excludesToRules(options.excludes);
    this.excludes = this.make().add(fromSettings.rules as string[]);
    this.conditional = fromSettings.conditional.map((c) => ({ ig: this.make().add(c.rules as string[]), when: c.when }));
    this.generated = this.make().add((options.generated ?? DEFAULT_GENERATED) as string[]);
  }

  private make(): Ignore {
    return ignore({ ignorecase: this.ignoreCase });
  }

  /** Forgets loaded ignore files (call when one of them changed). */
  invalidate(): void {
    this.frames.clear();
  }

  /** The frame for directory `dir` ('' is the root); `names` (the listing) saves reads of absent files. */
  frameFor(dir: string, names?: ReadonlySet<string>): Promise<DirFrame> {
    let frame = this.frames.get(dir);
    if (!frame) {
      frame = this.loadFrame(dir, names);
      this.frames.set(dir, frame);
    }
    return frame;
  }

  private async loadFrame(dir: string, names: ReadonlySet<string> | undefined): Promise<DirFrame> {
    const parent = dir === '' ? undefined : await this.frameFor(parentDir(dir));
    const git = this.options.useGitIgnore === false ? undefined : await this.readRules(dir, GIT_IGNORE, names);
    const cadenza = await this.readRules(dir, CADENZA_IGNORE, names);
    return { dir, parent, git, cadenza };
  }

  private async readRules(dir: string, name: string, names: ReadonlySet<string> | undefined): Promise<Ignore | undefined> {
    if (names && !names.has(name)) return undefined;
    const file = path.join(this.rootPath, ...dir.split('/').filter((s) => s !== ''), name);
    try {
      const text = await fsp.readFile(file, 'utf8');
      return this.make().add(text);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') this.logger.warn(`Cannot read ${file}: ${String(error)}`);
      return undefined;
    }
  }

  /** Whether `rel` (a child of `frame.dir`) is skipped. */
  isIgnored(frame: DirFrame, rel: string, isDir: boolean): boolean {
    const subject = isDir ? `${rel}/` : rel;
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    if (base === '.git') return true;
    if (this.excludes.ignores(subject)) return true;
    const own = verdict(frame, subject, (f) => f.cadenza, this.ignoreCase) ?? verdict(frame, subject, (f) => f.git, this.ignoreCase);
    if (own !== undefined) return own;
    // The defaults are all name patterns, so testing the name alone is their own-rule verdict.
    return this.generated.ignores(isDir ? `${base}/` : base);
  }

  /** Whether any exclude setting has a `when` condition (only then do a file's siblings matter). */
  get hasSiblingConditions(): boolean {
    return this.conditional.length > 0;
  }

  /** Whether a file is excluded by a `when` setting, given the names in its folder. */
  isExcludedBySibling(rel: string, siblings: ReadonlySet<string>): boolean {
    if (this.conditional.length === 0) return false;
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const stem = dot > 0 ? base.slice(0, dot) : base;
    return this.conditional.some((c) => c.ig.ignores(rel) && siblings.has(c.when.replace(/\$\(basename\)/g, stem)));
  }

  /** Whether a root-relative path, or any folder above it, is skipped (for single changed files). */
  async isPathIgnored(rel: string, isDir: boolean): Promise<boolean> {
    const parts = rel.split('/');
    let dir = '';
    for (let i = 0; i < parts.length; i++) {
      const child = dir === '' ? (parts[i] ?? '') : `${dir}/${parts[i] ?? ''}`;
      const last = i === parts.length - 1;
      if (this.isIgnored(await this.frameFor(dir), child, last ? isDir : true)) return true;
      dir = child;
    }
    return false;
  }
}

function parentDir(dir: string): string {
  const slash = dir.lastIndexOf('/');
  return slash < 0 ? '' : dir.slice(0, slash);
}

function escapeGlob(segment: string): string {
  return segment.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

const derivedCache = new WeakMap<Ignore, Map<string, Ignore>>();

/**
 * Whether `ig` matches `subject` by a rule of its own. `ignore` (like git's matching) also reports a
 * path as ignored when a folder above it is; the walk never enters such folders, so when it did, a
 * stronger rule re-included the folder and the inherited verdict must not count, while this file's
 * rules for the path itself (say `*.log`) still must. Re-including the ancestors in a derived copy
 * gives exactly that.
 */
function ownTest(ig: Ignore, subject: string, ignoreCase: boolean): { ignored: boolean; unignored: boolean } {
  const trimmed = subject.endsWith('/') ? subject.slice(0, -1) : subject;
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return ig.test(subject);
  const parent = trimmed.slice(0, slash);
  if (!ig.test(`${parent}/`).ignored) return ig.test(subject);
  let perFile = derivedCache.get(ig);
  if (!perFile) derivedCache.set(ig, (perFile = new Map()));
  let derived = perFile.get(parent);
  if (!derived) {
    const parts = parent.split('/');
    const reinclude = parts.map(
      (_, i) =>
        `!/${parts
          .slice(0, i + 1)
          .map(escapeGlob)
          .join('/')}/`,
    );
    derived = ignore({ ignorecase: ignoreCase }).add(ig).add(reinclude);
    perFile.set(parent, derived);
  }
  return derived.test(subject);
}

function verdict(frame: DirFrame, subject: string, pick: (f: DirFrame) => Ignore | undefined, ignoreCase: boolean): boolean | undefined {
  for (let f: DirFrame | undefined = frame; f; f = f.parent) {
    const ig = pick(f);
    if (!ig) continue;
    const relative = f.dir === '' ? subject : subject.slice(f.dir.length + 1);
    const result = ownTest(ig, relative, ignoreCase);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return undefined;
}
