import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { ServiceConnection } from '../service/connection';
import type { HostContext } from '../context';
import type { IndexService } from '../index/indexService';
import type { PromptLibrary } from '../prompts/promptLibrary';
import { CadenzaChatProvider, lmVendor } from './chatProvider';
import { createParticipantHandler, registerParticipant, type HandledRequest } from './participant';
import { registerLmTools, SemanticSearchTool, TranscribeAudioTool } from './tools';

/** Cadenza in VS Code's own chat, as activate() exposes it (the integration tests use it). */
export interface VscodeChatApi {
  readonly provider: CadenzaChatProvider;
  /** The @cadenza handler, for callers that cannot send a chat request through VS Code's UI. */
  readonly participantHandler: vscode.ChatRequestHandler;
  /** Fires after @cadenza answered a request in VS Code's chat, with what it answered. */
  readonly onDidHandleRequest: vscode.Event<HandledRequest>;
  /** The registered tools (their confirmations can be read without VS Code's dialogs). */
  readonly tools: { readonly semanticSearch: SemanticSearchTool; readonly transcribeAudio: TranscribeAudioTool };
}

/**
 * Registers the language model provider (vendor `cadenza`), the @cadenza participant and the two
 * language model tools. Everything returned in `disposables` belongs to the extension's lifetime.
 */
export function registerVscodeChat(
  host: HostContext,
  connection: ServiceConnection,
  index: IndexService,
  chat: ChatController,
  prompts: PromptLibrary,
): { api: VscodeChatApi; disposables: vscode.Disposable[] } {
  const provider = new CadenzaChatProvider(host, connection);
  const deps = { host, connection, index, prompts, preferredModel: async () => (await chat.current()).model };
  const participant = registerParticipant(deps);
  const tools = { semanticSearch: new SemanticSearchTool(index), transcribeAudio: new TranscribeAudioTool(host, connection) };
  return {
    api: { provider, participantHandler: createParticipantHandler(deps), onDidHandleRequest: participant.onDidHandleRequest, tools },
    disposables: [provider, vscode.lm.registerLanguageModelChatProvider(lmVendor, provider), ...participant.disposables, ...registerLmTools(tools)],
  };
}
