// semantic_search over the workspace index: its hybrid search, each hit with its chunk's text.
import { ToolError } from '../../core/tools/toolTypes';
import type { SemanticHit } from '../../core/tools/workspacePort';
import type { IndexService } from '../index/indexService';
import type { SemanticSearch } from './workspaceReader';

/** The index's search as the agent's port needs it; a missing or empty index is a ToolError the model can act on. */
export function indexSearch(index: IndexService): SemanticSearch {
  return async (query, k, signal): Promise<SemanticHit[]> => {
    const stats = await index.stats();
    if (!stats || stats.chunks === 0) throw new ToolError('notFound', 'The workspace index is empty or turned off; use search_text or find_files instead.');
    const hits = await index.search(query, k, signal);
    return Promise.all(
      hits.map(async (hit) => ({ path: hit.path, startLine: hit.startLine, endLine: hit.endLine, text: (await index.chunkText(hit)) ?? hit.preview })),
    );
  };
}
