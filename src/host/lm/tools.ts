import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiError } from '../../core/api/errors';
import type { ServiceConnection } from '../service/connection';
import type { HostContext } from '../context';
import type { IndexService, SearchHit } from '../index/indexService';
import { readIndexSettings } from '../index/indexSettings';
import { readSettings } from '../settings';
import { abortSignalOf } from './cancellation';
import { chatErrorMessage, isCancel } from './lmErrors';
import { defaultTranscriptionModel, languageCode, resolveAudioPath, transcribeFile, transcriptionEndpoint } from './transcription';

/** The tool names; `languageModelTools` in package.json contributes exactly these. */
export const lmToolNames = {
  semanticSearch: 'cadenza_semanticSearch',
  transcribeAudio: 'cadenza_transcribeAudio',
} as const;

/** Input of cadenza_semanticSearch (the contribution's inputSchema). */
export interface SemanticSearchInput {
  readonly query: string;
  readonly maxResults?: number;
}

/** Input of cadenza_transcribeAudio (the contribution's inputSchema). */
export interface TranscribeAudioInput {
  readonly path: string;
  readonly language?: string;
}

function quoted(text: string, max = 120): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return `"${oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine}"`;
}

/** Markdown-escapes text shown inside a confirmation (an agent chose it, not the user). */
function escaped(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (char) => `\\${char}`);
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** The hits as the model reads them: one `path:start-end` line each, with score and preview. */
export function formatHits(query: string, hits: readonly SearchHit[]): string {
  if (hits.length === 0) return `No results for ${quoted(query)} in the workspace index.`;
  const lines = hits.map((hit, rank) => {
    const matched = hit.matched === 'both' ? 'meaning + words' : hit.matched === 'semantic' ? 'meaning' : 'words';
    return `${rank + 1}. ${hit.path}:${hit.startLine}-${hit.endLine} (score ${hit.score.toFixed(3)}, ${matched})\n   ${hit.preview}`;
  });
  return `${hits.length} result${hits.length === 1 ? '' : 's'} for ${quoted(query)} (path:lines, best first):\n${lines.join('\n')}`;
}

/**
 * `cadenza_semanticSearch`: the workspace index searched by meaning (the query embedded by the service)
 * and by words (BM25, local). Confirms first: the query leaves the machine.
 */
export class SemanticSearchTool implements vscode.LanguageModelTool<SemanticSearchInput> {
  constructor(private readonly index: IndexService) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SemanticSearchInput>): vscode.PreparedToolInvocation {
    const query = String(options.input.query ?? '');
    const model = readIndexSettings().model;
    return {
      invocationMessage: vscode.l10n.t('Searching the workspace for {0}', quoted(query, 60)),
      confirmationMessages: {
        title: vscode.l10n.t('Search the workspace with Cadenza?'),
        message: new vscode.MarkdownString(
          vscode.l10n.t(
            'The query {0} is sent to the inference service at `{1}` to be embedded by `{2}`. The search itself runs in the local index: no file leaves this machine for it.',
            escaped(quoted(query)),
            readSettings().baseUrl,
            model,
          ),
        ),
      },
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<SemanticSearchInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const query = typeof options.input.query === 'string' ? options.input.query.trim() : '';
    if (query === '') throw new Error('cadenza_semanticSearch needs a non-empty "query".');
    if (!this.index.available) throw new Error('Semantic search needs an open folder: the workspace index lives with the workspace.');
    const requested = options.input.maxResults;
    const k = typeof requested === 'number' && Number.isFinite(requested) ? Math.min(50, Math.max(1, Math.round(requested))) : 10;
    const abort = abortSignalOf(token);
    try {
      const hits = await this.index.search(query, k, abort.signal);
      if (abort.signal.aborted) throw new vscode.CancellationError();
      if (hits.length === 0 && ((await this.index.stats())?.chunks ?? 0) === 0) {
        return textResult('The workspace index is empty, so there is nothing to search yet. Ask the user to run "Cadenza: Rebuild Index".');
      }
      return textResult(formatHits(query, hits));
    } finally {
      abort.dispose();
    }
  }
}

/**
 * `cadenza_transcribeAudio`: one audio file transcribed by the service. Confirms first, naming the file,
 * its size, the model and the address it is uploaded to.
 */
export class TranscribeAudioTool implements vscode.LanguageModelTool<TranscribeAudioInput> {
  constructor(
    private readonly host: HostContext,
    private readonly connection: ServiceConnection,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<TranscribeAudioInput>): Promise<vscode.PreparedToolInvocation> {
    const given = String(options.input.path ?? '');
    const uri = await resolveAudioPath(given);
    const name = uri ? vscode.workspace.asRelativePath(uri) : given;
    let size = '';
    if (uri) size = ` (${((await vscode.workspace.fs.stat(uri)).size / 1e6).toFixed(1)} MB)`;
    // Reading the cached model list is not a side effect; it names the model the audio goes to.
    const model = await defaultTranscriptionModel(this.connection).catch(() => undefined);
    return {
      invocationMessage: vscode.l10n.t('Transcribing {0}', path.basename(name)),
      confirmationMessages: {
        title: vscode.l10n.t('Transcribe audio with Cadenza?'),
        message: new vscode.MarkdownString(
          model
            ? vscode.l10n.t(
                'The audio file `{0}`{1} is uploaded to `{2}` and transcribed by `{3}`. The transcript is returned to the chat.',
                name,
                size,
                transcriptionEndpoint(),
                model.id,
              )
            : vscode.l10n.t(
                "The audio file `{0}`{1} is uploaded to `{2}` and transcribed by the service's transcription model. The transcript is returned to the chat.",
                name,
                size,
                transcriptionEndpoint(),
              ),
        ),
      },
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<TranscribeAudioInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const given = typeof options.input.path === 'string' ? options.input.path : '';
    const uri = await resolveAudioPath(given);
    if (!uri) throw new Error(`No file at "${given}". Give an absolute path or one relative to a workspace folder.`);
    const abort = abortSignalOf(token);
    try {
      const outcome = await transcribeFile(this.host, this.connection, uri, languageCode(options.input.language), abort.signal);
      if (outcome.status === 'canceled') throw new vscode.CancellationError();
      if (outcome.status === 'failed') throw new Error(`Could not transcribe ${vscode.workspace.asRelativePath(uri)}: ${outcome.error}`);
      return textResult(outcome.text === '' ? '(The audio holds no speech the model could transcribe.)' : outcome.text);
    } catch (error) {
      if (error instanceof vscode.CancellationError || isCancel(error, abort.signal)) throw new vscode.CancellationError();
      throw ApiError.is(error) ? new Error(chatErrorMessage(error)) : error;
    } finally {
      abort.dispose();
    }
  }
}

/** Registers both tools under their contributed names; the disposables belong to the extension. */
export function registerLmTools(tools: { readonly semanticSearch: SemanticSearchTool; readonly transcribeAudio: TranscribeAudioTool }): vscode.Disposable[] {
  return [vscode.lm.registerTool(lmToolNames.semanticSearch, tools.semanticSearch), vscode.lm.registerTool(lmToolNames.transcribeAudio, tools.transcribeAudio)];
}
