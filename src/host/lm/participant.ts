import * as vscode from 'vscode';
import { modelLimits } from '../../core/chat/lmMessages';
import { findLanguage } from '../../core/audio/languages';
import { pickAudioFiles } from '../audio/audioPickers';
import { codeContext } from '../commands/editorContext';
import type { IndexService, SearchHit } from '../index/indexService';
import { commandIds } from '../ids';
import { abortSignalOf } from './cancellation';
import { chatErrorMessage, isCancel } from './lmErrors';
import { answer, chooseModel, codeBlock, explainMissingSetup, referenceBlocks, type ParticipantDeps, type Question } from './participantAnswer';
import { recordingStream, type RecordedPart } from './responseTee';
import { isAudioPath, transcribeFile } from './transcription';
import { listPrompts, participantCommands, promptInvocation, promptQuestion, type PromptInvocation } from './participantPrompts';
import type { PromptLibrary } from '../prompts/promptLibrary';
import { planPromptRun } from '../../core/prompts/promptRun';

/** The participant's id; `chatParticipants` in package.json contributes it as @cadenza. */
export const participantId = 'cadenza.participant';

/** Everything the @cadenza handler uses. */
export interface CadenzaParticipantDeps extends ParticipantDeps {
  readonly index: IndexService;
  readonly prompts: PromptLibrary;
}

/** The code /explain is about: the referenced files or selections, else the editor's selection (or the function around the cursor). */
async function explainQuestion(request: vscode.ChatRequest, maxChars: number): Promise<Question | undefined> {
  let blocks = await referenceBlocks(request.references, maxChars);
  if (blocks.length === 0 && vscode.window.activeTextEditor) {
    const context = await codeContext();
    if (context)
      blocks = [
        codeBlock(context.fileName, context.language, context.text.slice(0, maxChars), {
          start: context.range.start.line + 1,
          end: context.range.end.line + 1,
        }),
      ];
  }
  if (blocks.length === 0) return undefined;
  const ask = request.prompt.trim();
  return {
    command: 'explain',
    text: `Explain this code: what it does, how, and anything surprising.${ask ? `\n\nThe user also asks: ${ask}` : ''}\n\n${blocks.join('\n\n')}`,
  };
}

/** The user's question with the referenced files and selections appended. */
async function plainQuestion(request: vscode.ChatRequest, maxChars: number): Promise<Question> {
  const blocks = await referenceBlocks(request.references, maxChars);
  return { text: blocks.length === 0 ? request.prompt : `${request.prompt}\n\n${blocks.join('\n\n')}` };
}

/** Inline code that survives backticks in the text. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks} ${text} ${ticks}`;
}

function location(hit: SearchHit): vscode.Location {
  return new vscode.Location(vscode.Uri.parse(hit.uri), new vscode.Range(Math.max(0, hit.startLine - 1), 0, Math.max(0, hit.endLine - 1), 0));
}

/** `/search <query>`: the index's hits as links (path:lines) with score and preview. */
async function search(index: IndexService, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<vscode.ChatResult> {
  const query = request.prompt.trim();
  if (query === '') {
    stream.markdown(vscode.l10n.t('Tell me what to look for, e.g. `@cadenza /search where do we retry failed uploads?`'));
    return { metadata: { command: 'search', hits: 0 } };
  }
  if (!index.available) {
    stream.markdown(vscode.l10n.t('Semantic search needs an open folder: the workspace index lives with the workspace.'));
    return { metadata: { command: 'search', hits: 0 } };
  }
  stream.progress(vscode.l10n.t('Searching the workspace index…'));
  const hits = await index.search(query, 10, signal);
  if (hits.length === 0) {
    const empty = ((await index.stats())?.chunks ?? 0) === 0;
    stream.markdown(
      empty
        ? vscode.l10n.t("The workspace index is empty. Build it first (its files are sent to the service's embeddings; the index stays on this machine).")
        : vscode.l10n.t('No results for {0}.', inlineCode(query)),
    );
    if (empty) stream.button({ command: commandIds.indexRebuild, title: vscode.l10n.t('Rebuild Index') });
    return { metadata: { command: 'search', hits: 0 } };
  }
  stream.markdown(
    `${hits.length === 1 ? vscode.l10n.t('**1 result** for {0}:', inlineCode(query)) : vscode.l10n.t('**{0} results** for {1}:', hits.length, inlineCode(query))}\n\n`,
  );
  hits.forEach((hit, rank) => {
    const matched = hit.matched === 'both' ? vscode.l10n.t('meaning + words') : hit.matched === 'semantic' ? vscode.l10n.t('meaning') : vscode.l10n.t('words');
    stream.markdown(`${rank + 1}. `);
    stream.anchor(location(hit), `${hit.path}:${hit.startLine}-${hit.endLine}`);
    stream.markdown(` · ${hit.score.toFixed(3)} · ${matched}${hit.preview ? `  \n   ${inlineCode(hit.preview)}` : ''}\n`);
  });
  return { metadata: { command: 'search', hits: hits.length, paths: hits.map((hit) => hit.path) } };
}

/** The audio files of the request: referenced (#file) ones, else picked in a dialog. */
async function audioFiles(request: vscode.ChatRequest): Promise<vscode.Uri[]> {
  const referenced = request.references.flatMap((reference) => {
    const value = reference.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    return uri && isAudioPath(uri.path) ? [uri] : [];
  });
  return referenced.length > 0 ? referenced : pickAudioFiles();
}

/** `/transcribe [language]`: each referenced (or picked) audio file transcribed by the service. */
async function transcribe(
  deps: CadenzaParticipantDeps,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<vscode.ChatResult> {
  const uris = await audioFiles(request);
  if (uris.length === 0) {
    stream.markdown(
      vscode.l10n.t(
        'Reference an audio file with `#file:` (flac, mp3, mp4, m4a, ogg, wav or webm), or pick one when asked, e.g. `@cadenza /transcribe #file:meeting.mp3`.',
      ),
    );
    return { metadata: { command: 'transcribe', files: 0 } };
  }
  // The prompt may name the spoken language ("French", "fr"); anything else means detect it.
  const language = findLanguage(request.prompt.replace(/#\S+/g, '').trim())?.code ?? '';
  const failed: string[] = [];
  for (const uri of uris) {
    const name = vscode.workspace.asRelativePath(uri);
    stream.progress(vscode.l10n.t('Transcribing {0}…', name));
    const outcome = await transcribeFile(deps.host, deps.connection, uri, language, signal);
    if (outcome.status === 'canceled') return { metadata: { command: 'transcribe', canceled: true } };
    stream.markdown(`${vscode.l10n.t('**Transcript of**')} `);
    stream.anchor(uri, name);
    if (outcome.status === 'failed') {
      failed.push(`${name}: ${outcome.error}`);
      stream.markdown(`: ${vscode.l10n.t('failed. {0}', outcome.error)}\n\n`);
      continue;
    }
    const seconds = outcome.seconds !== undefined ? `, ${outcome.seconds.toFixed(1)} s` : '';
    const quoted = outcome.text
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
    stream.markdown(
      ` (${outcome.model}${language ? `, ${language}` : ''}${seconds}):\n\n${outcome.text === '' ? vscode.l10n.t('*(no speech found)*') : quoted}\n\n`,
    );
  }
  return {
    ...(failed.length > 0 ? { errorDetails: { message: failed.join('\n') } } : {}),
    metadata: { command: 'transcribe', files: uris.length, failed: failed.length },
  };
}

/** `/name` of a prompt file: filled in and answered like a question, or the list of prompts when there is none by that name. */
async function runPrompt(
  deps: CadenzaParticipantDeps,
  invocation: PromptInvocation,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  signal: AbortSignal,
): Promise<vscode.ChatResult> {
  const prompt = await deps.prompts.find(invocation.name, participantCommands);
  if (!prompt) return await listPrompts(deps.prompts, invocation.name, stream);
  if (!(await deps.host.apiKey.get())) return await explainMissingSetup(deps, stream);
  // The file's model, when the service lists it, answers instead of the chat's (core/prompts/promptRun.ts, as in the panel).
  await deps.connection.ensureModels();
  const plan = planPromptRun(
    prompt,
    deps.connection.models.models.map((listed) => listed.id),
    prompt.untrusted,
    'chat',
  );
  const model = (plan.model !== undefined ? deps.connection.model(plan.model) : undefined) ?? (await chooseModel(deps, request.model));
  if (!model) return await explainMissingSetup(deps, stream);
  const question = await promptQuestion(prompt, invocation, request, stream, token, plan.modelNotice);
  if (!question) return { metadata: { command: 'prompt', prompt: prompt.name, ran: false } };
  const result = await answer(deps, model, request, context, question, stream, token, signal);
  return { ...result, metadata: { ...result.metadata, prompt: prompt.name, source: prompt.source.uri, untrusted: prompt.untrusted, ran: true } };
}

/**
 * The @cadenza handler: /explain, /search and /transcribe, `/name` of a prompt file, or a question answered by the service.
 * Exported (through activate()'s API) for callers with their own request: tests of what VS Code's chat
 * input cannot express from an extension, such as a hand-made selection reference or a wrong key mid-test.
 * Errors become the result's errorDetails; a cancel ends quietly.
 */
export function createParticipantHandler(deps: CadenzaParticipantDeps): vscode.ChatRequestHandler {
  return async (request, context, stream, token) => {
    const abort = abortSignalOf(token);
    try {
      const invocation = promptInvocation(request);
      if (invocation) return await runPrompt(deps, invocation, request, context, stream, token, abort.signal);
      // Search still answers without a key (by words only); everything else needs the service.
      if (request.command === 'search') return await search(deps.index, request, stream, abort.signal);
      if (!(await deps.host.apiKey.get())) return await explainMissingSetup(deps, stream);
      if (request.command === 'transcribe') return await transcribe(deps, request, stream, abort.signal);
      const model = await chooseModel(deps, request.model);
      if (!model) return await explainMissingSetup(deps, stream);
      // About half the input budget for referenced code, at the context budget's four characters a token.
      const maxChars = modelLimits(model).maxInputTokens * 2;
      if (request.command === 'explain') {
        const question = await explainQuestion(request, maxChars);
        if (!question) {
          stream.markdown(vscode.l10n.t('Select some code in an editor, or reference a file or selection with `#`, then ask `@cadenza /explain` again.'));
          return { metadata: { command: 'explain' } };
        }
        return await answer(deps, model, request, context, question, stream, token, abort.signal);
      }
      return await answer(deps, model, request, context, await plainQuestion(request, maxChars), stream, token, abort.signal);
    } catch (error) {
      if (isCancel(error, abort.signal) || error instanceof vscode.CancellationError) {
        deps.host.log.debug('A @cadenza request was cancelled.');
        return { metadata: { command: request.command ?? '', canceled: true } };
      }
      deps.host.log.warn(`@cadenza ${request.command ? `/${request.command} ` : ''}failed: ${chatErrorMessage(error)}`);
      return { errorDetails: { message: chatErrorMessage(error) }, metadata: { command: request.command ?? '' } };
    } finally {
      abort.dispose();
    }
  };
}

/** What one @cadenza request was and what the participant answered (for logs and the integration tests). */
export interface HandledRequest {
  readonly prompt: string;
  readonly command: string | undefined;
  /** The chat's selected model, as VS Code passed it. */
  readonly model: { readonly vendor: string; readonly id: string } | undefined;
  readonly references: number;
  readonly toolReferences: readonly string[];
  readonly parts: readonly RecordedPart[];
  readonly result: vscode.ChatResult;
}

/**
 * Creates @cadenza in VS Code's chat. Each answer goes to VS Code's stream through a recorder, so
 * `onDidHandleRequest` can tell what was answered (VS Code gives no way to read a chat response back).
 */
export function registerParticipant(deps: CadenzaParticipantDeps): {
  readonly onDidHandleRequest: vscode.Event<HandledRequest>;
  readonly disposables: vscode.Disposable[];
} {
  const handled = new vscode.EventEmitter<HandledRequest>();
  const handler = createParticipantHandler(deps);
  const participant = vscode.chat.createChatParticipant(participantId, async (request, context, response, token) => {
    const recorder = recordingStream(response);
    const result = (await handler(request, context, recorder.stream, token)) ?? {};
    handled.fire({
      prompt: request.prompt,
      command: request.command,
      model: request.model ? { vendor: request.model.vendor, id: request.model.id } : undefined,
      references: request.references.length,
      toolReferences: request.toolReferences.map((reference) => reference.name),
      parts: recorder.parts,
      result,
    });
    return result;
  });
  participant.iconPath = vscode.Uri.joinPath(deps.host.extension.extensionUri, 'media', 'cadenza.svg');
  return { onDidHandleRequest: handled.event, disposables: [participant, handled] };
}
