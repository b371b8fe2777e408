// What the workspace index's suites share: the vectors' dimension, a workspace of code files, and the index
// opened over a fixture's `ws` folder with small batches.
import type { EmbedFunction } from '../../../src/core/index/embedQueue';
import { WorkspaceIndex, indexFilePath, type WorkspaceIndexOptions } from '../../../src/core/index/workspaceIndex';
import { codeFile, type Fixture } from './helpers';

export const DIM = 64;

/** `count` code files of `functions` functions each, under src/. */
export function files(count: number, functions = 4): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) out[`src/file${i}.ts`] = codeFile(`mod${i}`, functions);
  return out;
}

/** Where the fixture's index is stored. */
export function indexStorage(fx: Fixture): string {
  return indexFilePath(fx.path('storage'), 'E5-Mistral-7B-Instruct');
}

/** Opens the index of the fixture's `ws` folder (120-token chunks, batches of 4, two at a time). */
export async function openIndex(fx: Fixture, storage: string, embed: EmbedFunction, extra: Partial<WorkspaceIndexOptions> = {}): Promise<WorkspaceIndex> {
  const { index } = await WorkspaceIndex.open({
    roots: [{ name: 'ws', path: fx.path('ws') }],
    storagePath: storage,
    modelId: 'E5-Mistral-7B-Instruct',
    dimension: DIM,
    embed,
    chunking: { targetTokens: 120 },
    embedding: { batchSize: 4, concurrency: 2 },
    ...extra,
  });
  return index;
}
