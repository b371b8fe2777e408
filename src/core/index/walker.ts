import * as fs from 'node:fs';
import type { BigIntStats, Dirent, Stats } from 'node:fs';
import * as path from 'node:path';
import { silentLogger } from '../logger';
import { IgnoreRules, type IgnoreOptions } from './ignoreRules';
import { SECRET_PATTERN_SEGMENTS, isSecretPath, windowsSegments } from './secretFiles';
import type { IndexRoot } from './types';

/** A file the walk found and kept. `key` is the index path: `<root name>/<relPath>`. */
export interface WalkEntry {
  readonly root: IndexRoot;
  readonly relPath: string;
  readonly key: string;
  readonly absPath: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Why a file or folder the rules allowed was still skipped. */
export type SkipReason =
  'tooLarge' | 'binaryExtension' | 'secret' | 'excludedBySibling' | 'symlinkLoop' | 'outsideWorkspace' | 'vanished' | 'unreadable' | 'limit';

/** Counters a walk fills in as it goes (the generator cannot return them mid-stream). */
export interface WalkStats {
  files: number;
  ignored: number;
  skipped: Partial<Record<SkipReason, number>>;
  /** Roots whose top folder could not be listed: their indexed files must not be treated as deleted. */
  failedRoots: Set<string>;
  /** True when `maxFiles` cut the walk short (so absence proves nothing about deletion). */
  truncated: boolean;
}

/** A fresh set of counters. */
export function newWalkStats(): WalkStats {
  return { files: 0, ignored: 0, skipped: {}, failedRoots: new Set(), truncated: false };
}

/** What to walk and what to skip. */
export interface WalkOptions extends IgnoreOptions {
  readonly roots: readonly IndexRoot[];
  /** Larger files are skipped (default 1 MB): huge files are generated, minified or data. */
  readonly maxFileBytes?: number | undefined;
  /**
   * Follow symlinked folders (default true, like `search.followSymlinks`); loops are always cut, and a
   * link (file or folder) whose real path leaves its workspace folder is never followed.
   */
  readonly followSymlinks?: boolean | undefined;
  /** Stop after this many files (default 250,000), logging it. */
  readonly maxFiles?: number | undefined;
  /** Only walk below this root-relative folder of every root (for a changed folder). */
  readonly below?: string | undefined;
  /** Ignore rules per root path, so callers can share their caches; made on demand when absent. */
  readonly rules?: ReadonlyMap<string, IgnoreRules> | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly stats?: WalkStats | undefined;
  /** Lists a folder; defaults to fs.readdir. A seam for tests of failures root cannot provoke (EACCES). */
  readonly listDirectory?: ((path: string) => Promise<Dirent[]>) | undefined;
}

/** Default size limit per file. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * Extensions that are never text. Content is sniffed anyway when read (binaryDetect.ts); this list
 * only saves opening files that cannot be indexed.
 */
const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico icns webp tif tiff psd ai sketch fig heic avif pdf zip gz tgz bz2 xz zst 7z rar jar war ear ' +
    'class dex apk aab ipa exe dll so dylib o a lib obj pdb bin dat db sqlite sqlite3 mdb wasm pyc pyo pyd node ' +
    'mp3 mp4 m4a m4v wav ogg oga flac aac opus mov avi mkv webm wmv flv woff woff2 ttf otf eot iso dmg pkg deb rpm msi ' +
    'parquet arrow feather npy npz pt pth onnx safetensors gguf ckpt h5 pb tflite xlsx xls docx doc pptx ppt odt ods'
  ).split(' '),
);

const STAT_BATCH = 32;

// The callback API: the promise one costs several times more main-thread time per call, which adds
// up over 100,000 stats (see fileSource.ts).
const statOf = (p: string): Promise<Stats> => new Promise((resolve, reject) => fs.stat(p, (e, s) => (e ? reject(e) : resolve(s))));
const identityOf = (p: string): Promise<BigIntStats> => new Promise((resolve, reject) => fs.stat(p, { bigint: true }, (e, s) => (e ? reject(e) : resolve(s))));
const realOf = (p: string): Promise<string> => new Promise((resolve, reject) => fs.realpath(p, (e, r) => (e ? reject(e) : resolve(r))));
const listOf = (p: string): Promise<Dirent[]> =>
  new Promise((resolve, reject) => fs.readdir(p, { withFileTypes: true }, (e, d) => (e ? reject(e) : resolve(d))));

/** Whether `target` (a real path) is `root` or lies below it. */
export function isWithin(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The real path of a workspace folder (the folder itself may be reached through a link); the path as given when it cannot be resolved. */
export async function realRoot(root: string): Promise<string> {
  return realOf(root).catch(() => path.resolve(root));
}

/**
 * Whether `abs` (inside the folder whose real path is `rootReal`) really lies inside it: a symbolic
 * link anywhere on the way can point out of it (`docs -> ../../.ssh`), and what it points to must not
 * be indexed, searched or read. Undefined when the path does not exist.
 */
export async function staysInside(rootReal: string, abs: string): Promise<boolean | undefined> {
  try {
    return isWithin(rootReal, await realOf(abs));
  } catch {
    return undefined;
  }
}

interface Pending {
  readonly name: string;
  readonly rel: string;
  readonly abs: string;
  stats?: Stats;
}

/** Whether a file name's extension marks it as binary. */
export function hasBinaryExtension(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot >= 0 && BINARY_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

/** Why the index leaves a path out by its path alone. */
export type PathSkip = 'ignored' | 'secret' | 'binaryExtension';

/**
 * Why the index leaves out root-relative `rel` (a file, or a folder with `isDir`) by its path alone: the
 * ignore rules (`.git` always), a secret's name (core/index/secretFiles.ts), a binary extension. The
 * path is also judged as Windows opens it (`.env::$DATA` is `.env`, `.git.` is `.git`). For a link,
 * judge where it leads as well: `config/app.txt -> ../.env` is the ignored secret `.env`.
 */
export async function skipByPath(rules: IgnoreRules, rel: string, isDir: boolean): Promise<PathSkip | undefined> {
  const segments = windowsSegments(rel);
  const windows = segments.join('/');
  // `.GIT` is `.git` where names ignore case (macOS, Windows); nothing of a git folder is indexed anywhere.
  if (segments.some((segment) => segment.toLowerCase() === '.git')) return 'ignored';
  if (isSecretPath(rel, isDir)) return 'secret';
  if (!isDir && hasBinaryExtension(windows.slice(windows.lastIndexOf('/') + 1))) return 'binaryExtension';
  return (await ignoredAsOpened(rules, rel, isDir, windows)) ? 'ignored' : undefined;
}

/**
 * Whether the ignore rules leave out root-relative `rel`, by the path as written or as Windows opens it
 * (`.env::$DATA` is `.env`). `windows` saves splitting the path again when the caller has its segments.
 */
export async function ignoredAsOpened(rules: IgnoreRules, rel: string, isDir: boolean, windows = windowsSegments(rel).join('/')): Promise<boolean> {
  for (const form of new Set([rel, windows])) if (form !== '' && (await rules.isPathIgnored(form, isDir))) return true;
  return false;
}

/** The last `count` segments of a `/`-separated path. */
function lastSegments(rel: string, count: number): string {
  let at = rel.length;
  for (let i = 0; i < count && at > 0; i++) at = rel.lastIndexOf('/', at - 1);
  return at <= 0 ? rel : rel.slice(at + 1);
}

/** `real` (inside `rootReal`) relative to it, with `/`. */
function relativeReal(rootReal: string, real: string): string {
  return path.relative(rootReal, real).split(path.sep).join('/');
}

/**
 * Walks every root depth-first in sorted order and yields the files to index, streaming (memory
 * grows with folder depth and width, not with the file count). Never follows a folder it has already
 * entered (by device and inode), so symlink loops end; never follows a link whose real path leaves its
 * workspace folder (counted as `outsideWorkspace`); leaves out files and folders whose names look like
 * secrets (`secret`), and a link, or anything below a followed folder link, whose real path the rules
 * leave out (`config/app.txt -> ../.env` when `.env` is ignored or a secret); a folder or file that
 * vanishes or cannot be read mid-walk is logged and skipped. Stops quietly when `signal` aborts.
 */
export async function* walkWorkspace(options: WalkOptions): AsyncGenerator<WalkEntry> {
  const logger = options.logger ?? silentLogger;
  const stats = options.stats ?? newWalkStats();
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxFiles = options.maxFiles ?? 250_000;
  const follow = options.followSymlinks ?? true;
  const skip = (reason: SkipReason, what: string, detail = ''): void => {
    stats.skipped[reason] = (stats.skipped[reason] ?? 0) + 1;
    logger.debug(`Index skips ${what}: ${reason}${detail ? ` (${detail})` : ''}`);
  };
  const visited = new Set<string>();
  // Why a link's target (or anything below a followed folder link) is left out: judged on its real path.
  const skipTarget = async (rules: IgnoreRules, rel: string, realRel: string | undefined, isDir: boolean, what: string): Promise<boolean> => {
    if (realRel === undefined || realRel === '' || realRel === rel) return false;
    const why = await skipByPath(rules, realRel, isDir);
    if (why === undefined) return false;
    if (why === 'ignored') {
      stats.ignored++;
      logger.debug(`Index skips ${what}: it leads to ${realRel}, which the ignore rules leave out`);
    } else skip(why, what, `it leads to ${realRel}`);
    return true;
  };

  for (const root of options.roots) {
    const rules = options.rules?.get(root.path) ?? new IgnoreRules(root.path, options);
    const start = (options.below ?? '').replace(/^\/+|\/+$/g, '');
    const rootReal = await realRoot(root.path);
    const stack: string[] = [start];
    /** Folders walked through a link: their real path relative to the root, when it differs. */
    const realDirs = new Map<string, string>();
    // A changed folder named by the watcher may itself be (or lie below) a link out of the folder, or to
    // a folder the rules leave out.
    if (start !== '') {
      const absStart = path.join(root.path, ...start.split('/'));
      if ((await staysInside(rootReal, absStart)) === false) {
        skip('outsideWorkspace', absStart);
        continue;
      }
      const startReal = await realOf(absStart).then(
        (real) => relativeReal(rootReal, real),
        () => undefined,
      );
      if (await skipTarget(rules, start, startReal, true, absStart)) continue;
      if (startReal !== undefined && startReal !== start) realDirs.set(start, startReal);
    }
    while (stack.length > 0) {
      if (options.signal?.aborted) return;
      const dir = stack.pop() ?? '';
      const realDir = realDirs.get(dir);
      const absDir = path.join(root.path, ...dir.split('/').filter((s) => s !== ''));
      let entries: Dirent[];
      try {
        const identity = await identityOf(absDir);
        const id = `${identity.dev}:${identity.ino}`;
        if (visited.has(id)) {
          skip('symlinkLoop', absDir, 'folder already walked');
          continue;
        }
        visited.add(id);
        entries = await (options.listDirectory ?? listOf)(absDir);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (dir === start) stats.failedRoots.add(root.name);
        if (code === 'ENOENT' || code === 'ENOTDIR') skip('vanished', absDir);
        else {
          skip('unreadable', absDir, code ?? String(error));
          logger.warn(`Cannot list ${absDir}: ${code ?? String(error)}`);
        }
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const names = new Set(entries.map((e) => e.name));
      const frame = await rules.frameFor(dir, names);
      const files: Pending[] = [];
      const subdirs: string[] = [];
      for (const entry of entries) {
        const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
        const abs = path.join(absDir, entry.name);
        let isDir = entry.isDirectory();
        let isFile = entry.isFile();
        let resolved: Stats | undefined;
        let realRel = realDir === undefined ? undefined : `${realDir}/${entry.name}`;
        if (entry.isSymbolicLink()) {
          try {
            const real = await realOf(abs);
            if (!isWithin(rootReal, real)) {
              skip('outsideWorkspace', abs, 'a link out of the workspace folder');
              continue;
            }
            realRel = relativeReal(rootReal, real);
            resolved = await statOf(abs);
            isDir = resolved.isDirectory() && follow;
            isFile = resolved.isFile();
          } catch (error) {
            skip('vanished', abs, `broken symlink: ${(error as NodeJS.ErrnoException).code ?? ''}`);
            continue;
          }
        }
        if (!isDir && !isFile) continue;
        if (rules.isIgnored(frame, rel, isDir)) {
          stats.ignored++;
          continue;
        }
        // The folders above were judged when they were entered: the last few segments decide.
        if (isSecretPath(lastSegments(rel, SECRET_PATTERN_SEGMENTS), isDir)) {
          skip('secret', abs);
          continue;
        }
        if (realRel !== undefined && (await skipTarget(rules, rel, realRel, isDir, abs))) continue;
        if (isDir) {
          subdirs.push(rel);
          if (realRel !== undefined && realRel !== rel) realDirs.set(rel, realRel);
        } else if (hasBinaryExtension(entry.name)) skip('binaryExtension', abs);
        else if (rules.isExcludedBySibling(rel, names)) skip('excludedBySibling', abs);
        else files.push({ name: entry.name, rel, abs, ...(resolved ? { stats: resolved } : {}) });
      }
      for (let i = 0; i < files.length; i += STAT_BATCH) {
        const batch = files.slice(i, i + STAT_BATCH);
        await Promise.all(
          batch.map(async (f) => {
            if (f.stats) return;
            try {
              f.stats = await statOf(f.abs);
            } catch (error) {
              skip('vanished', f.abs, (error as NodeJS.ErrnoException).code ?? '');
            }
          }),
        );
        for (const f of batch) {
          const s = f.stats;
          if (!s) continue;
          if (s.size > maxBytes) {
            skip('tooLarge', f.abs, `${s.size} bytes`);
            continue;
          }
          if (stats.files >= maxFiles) {
            if (!stats.truncated) logger.warn(`Index stops at ${maxFiles} files; narrow it with .cadenzaignore.`);
            stats.truncated = true;
            skip('limit', f.abs);
            return;
          }
          stats.files++;
          yield { root, relPath: f.rel, key: `${root.name}/${f.rel}`, absPath: f.abs, size: s.size, mtimeMs: s.mtimeMs };
        }
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] ?? '');
    }
  }
}
