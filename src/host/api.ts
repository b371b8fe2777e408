// What activate() hands to other extensions. The whole object graph (the chat panel, the agent with
// its approval policy and trust override, the workspace port) exists for the integration tests, which
// run the extension in VS Code's test mode; an installed extension gives other extensions only a small,
// read-only API, so none of them can switch approvals off or lift Restricted Mode.
import * as vscode from 'vscode';
import type { PanelAudio } from './audio/panelAudio';
import type { ChatStatusBar } from './chat/statusBar';
import type { CompletionStatusBar } from './completions/completionStatusBar';
import type { MentionService } from './chat/context/mentionService';
import type { CompletionService } from './completions/completionService';
import type { ServiceConnection } from './service/connection';
import type { IndexService, SearchHit } from './index/indexService';
import type { VscodeChatApi } from './lm/vscodeChat';
import type { PromptLibrary } from './prompts/promptLibrary';
import type { AgentService } from './tools/agentService';
import type { ToWebview } from '../shared/protocol';
import type { PanelChannel } from './panel/panelChannel';
import type { PanelRouter } from './panel/router';
import type { ChatViewProvider } from './views/chatViewProvider';
import type { WorkspaceSettingsNotice } from './workspaceSettingsNotice';

/**
 * What activate() returns to the integration tests (VS Code's test mode only; other extensions get
 * `CadenzaPublicApi`, see api.ts).
 */
export interface CadenzaApi {
  /** The chat panel: the suites send what its webview sends (`handle`) and read what it is posted (`onDidPost`). */
  readonly chatView: PanelTestApi;
  /** What outlives a session, where the next session or another window reads it: the suites check what was stored here. */
  readonly storage: ExtensionStorage;
  /** Audio in the chat panel: attach (`pick`) and transcribe into the prompt; tests pass the file the dialog would ask for. */
  readonly panelAudio: PanelAudio;
  readonly connection: ServiceConnection;
  readonly index: IndexService;
  /** The agent: its workspace port, approvals, and the tests' hooks (`setApprovalPolicy`, `overrideTrust`). */
  readonly agent: AgentService;
  /** Cadenza in VS Code's own chat: the language model provider and the @cadenza handler. */
  readonly lm: VscodeChatApi;
  /** The prompt files of the window (`/name`): what was found, where the profile's folder is, the change event. */
  readonly prompts: PromptLibrary;
  /** Inline completions: state, counters, today's usage and each provider call's decision. */
  readonly completions: CompletionService;
  /** The status bar items whose tooltips show what chat and completions spent, apart. */
  readonly statusBars: { readonly chat: ChatStatusBar; readonly completions: CompletionStatusBar };
  /** The composer's @-mentions: the `@` list's catalog, resolving a pick into its chip. */
  readonly mentions: MentionService;
  /** The notice naming the workspace's settings that are ignored because they would do or spend more. */
  readonly settingsNotice: WorkspaceSettingsNotice;
}

/** The chat panel as the integration suites drive it: its view, its channel and its router, seen as one. */
export interface PanelTestApi {
  /** Whether the panel's view is resolved. */
  readonly isResolved: boolean;
  /** Whether its webview said `ready` (what is posted is delivered at once). */
  readonly isReady: boolean;
  /** Fires each time the view is resolved. */
  readonly onDidResolve: vscode.Event<void>;
  /** Fires for every message delivered to the webview. */
  readonly onDidPost: vscode.Event<ToWebview>;
  /** Validates and routes a message as if the webview had sent it; resolves when it has been handled. */
  handle(message: unknown): Promise<void>;
}

/** The panel's test view over its view, channel and router. */
export function panelTestApi(view: ChatViewProvider, channel: PanelChannel, router: PanelRouter): PanelTestApi {
  return {
    get isResolved() {
      return view.isResolved;
    },
    get isReady() {
      return channel.isReady;
    },
    onDidResolve: view.onDidResolve,
    onDidPost: channel.onDidPost,
    handle: (message) => router.handle(message),
  };
}

/** The extension's storage as another window or the next session finds it. */
export interface ExtensionStorage {
  /** Where conversations are saved, one JSON file each. */
  readonly conversationsFolder: string;
  readonly workspaceState: vscode.Memento;
  readonly globalState: vscode.Memento;
  readonly secrets: vscode.SecretStorage;
}

/** The API every other extension gets: a search of the workspace index, as the `cadenza.search` command gives. */
export interface CadenzaPublicApi {
  /** Hybrid search of the workspace index (semantic and keyword); empty without an index. */
  readonly search: (query: string, k?: number) => Promise<readonly SearchHit[]>;
}

/**
 * The API for an extension mode: the full one, test hooks included, only when VS Code runs the
 * extension's tests (`ExtensionMode.Test`); otherwise the public one, frozen.
 */
export function exportedApi(mode: vscode.ExtensionMode, full: CadenzaApi): CadenzaApi | CadenzaPublicApi {
  if (mode === vscode.ExtensionMode.Test) return full;
  const index = full.index;
  return Object.freeze({ search: (query: string, k = 10) => index.search(String(query), Math.max(1, Math.min(50, Math.floor(Number(k) || 10)))) });
}
