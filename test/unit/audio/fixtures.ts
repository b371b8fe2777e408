// Loads the generated audio fixtures for the tests: installs the tools if needed, generates the set
// once per machine (cached outside the repository), and reads its manifest. A missing tool is a
// failure with instructions, never a skip: a suite that silently tests nothing would pass.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AudioFormat } from '../../../src/core/audio/sniff';
import { repoRoot } from '../../support/fixtures/repoRoot';

/** What the generator says about one file. */
export interface FixtureFile {
  readonly name: string;
  /** The real container, or null for files that are not audio at all. */
  readonly format: AudioFormat | null;
  readonly kind: 'good' | 'long' | 'large' | 'truncated' | 'corrupt' | 'renamed' | 'notAudio';
  readonly path: string;
  readonly ext: string;
  readonly bytes: number;
  readonly ffprobeSeconds: number | null;
  readonly soxiSeconds: number | null;
  /** VBR MP3 without a Xing header: ffprobe guesses from the first bitrate; soxi counts frames. */
  readonly vbrNoHeader?: boolean;
  /** Written to a pipe, so the container carries no duration and ffprobe reports none. */
  readonly noDurationHeader?: boolean;
  /** Compressed WAV encoding (IMA ADPCM): measurable, not splittable. */
  readonly compressed?: boolean;
}

/** The manifest `generate.mjs` writes. */
export interface FixtureManifest {
  readonly version: string;
  readonly tts: string;
  /** Duration of the speech every encoded file was made from. */
  readonly sourceSeconds: number;
  readonly dir: string;
  readonly files: readonly FixtureFile[];
}

let cached: FixtureManifest | undefined;

/** Installs tools and generates fixtures on first call (slow once, instant after); throws with advice on failure. */
export function loadFixtures(): FixtureManifest {
  if (cached !== undefined) return cached;
  const root = repoRoot();
  const fixtures = join(root, 'test', 'support', 'fixtures', 'audio');
  try {
    execFileSync('bash', [join(fixtures, 'setup-audio-tools.sh')], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    throw new Error(
      `Audio tools (sox, ffmpeg, espeak-ng) are missing and could not be installed. ` +
        `Run: sudo bash test/support/fixtures/audio/setup-audio-tools.sh\n${stderrOf(err)}`,
    );
  }
  let manifestPath: string;
  try {
    manifestPath = execFileSync(process.execPath, [join(fixtures, 'generate.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    throw new Error(`Generating the audio fixtures failed: node test/support/fixtures/audio/generate.mjs\n${stderrOf(err)}`);
  }
  const parsed: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (!isManifest(parsed)) throw new Error(`${manifestPath} is not a fixture manifest`);
  cached = parsed;
  return parsed;
}

/** The file of that name; throws when the generator did not make it. */
export function fixture(manifest: FixtureManifest, name: string): FixtureFile {
  const found = manifest.files.find((f) => f.name === name);
  if (found === undefined) throw new Error(`fixture ${name} missing from ${manifest.dir}`);
  return found;
}

/** The duration a file should have: soxi where ffprobe guesses, else ffprobe, else the source's. */
export function referenceSeconds(manifest: FixtureManifest, f: FixtureFile): number {
  if (f.vbrNoHeader === true && f.soxiSeconds !== null) return f.soxiSeconds;
  return f.ffprobeSeconds ?? f.soxiSeconds ?? manifest.sourceSeconds;
}

function isManifest(value: unknown): value is FixtureManifest {
  if (typeof value !== 'object' || value === null) return false;
  const files: unknown = Reflect.get(value, 'files');
  return Array.isArray(files) && files.length > 0 && typeof Reflect.get(value, 'sourceSeconds') === 'number';
}

function stderrOf(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const stderr: unknown = Reflect.get(err, 'stderr');
    if (stderr !== undefined && stderr !== null) return String(stderr);
  }
  return String(err);
}
