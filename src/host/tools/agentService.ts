// The agent's host side, one per window: the workspace port, the approvals, the per-conversation tool
// sessions, and the decision whether an answer uses tools at all (setting, model capability, JSON mode,
// audio). The integration tests reach it through the extension's test-mode API to set an approval policy
// or pretend a trust; other extensions never get it (see ../api.ts).
import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/api/types';
import type { Capability } from '../../shared/views';
import { estimateTokens } from '../../core/chat/contextBudget';
import type { Conversation } from '../../core/chat/conversation';
import { toolsForMode, type AgentMode } from '../../core/tools/agentMode';
import { agentSystemPrompt } from '../../core/tools/definitions';
import { ToolSession } from '../../core/tools/toolTypes';
import { workspaceToolset, type Toolset } from '../../core/tools/toolset';
import { workspaceOverview } from '../../core/tools/workspaceOverview';
import type { WorkspacePort } from '../../core/tools/workspacePort';
import type { Logger } from '../../core/logger';
import { readAgentSettings, type AgentSettings } from './agentSettings';
import { ApprovalBroker, type ApprovalPolicy } from './approvals';
import { CheckpointService } from './checkpointService';
import { EditPreviews } from './editPreviews';
import { VscodeWorkspacePort } from './vscodeWorkspace';
import { VscodeTools } from './vscodeTools';
import type { SemanticSearch } from './workspaceReader';

/** Whether an answer runs the agent, and if not, what the panel says about it. */
export type AgentPlan = { readonly use: true; readonly settings: AgentSettings } | { readonly use: false; readonly notice?: string };

/** The agent's services for the chat controller and the extension API. */
export class AgentService implements vscode.Disposable {
  private readonly previews = new EditPreviews();
  /** Who decides on proposed changes (the panel, or a policy). */
  readonly approvals = new ApprovalBroker(this.previews);
  /** The editor as the tools see it (integration tests call it directly). */
  readonly port: VscodeWorkspacePort;
  /** The checkpoints of agent turns that changed files (restore, multi-file diff). */
  readonly checkpoints: CheckpointService;
  /** The tools other extensions and MCP servers register in VS Code, as far as the user enabled them (the tools menu). */
  readonly vscodeTools: VscodeTools;
  private readonly sessions = new Map<string, ToolSession>();
  private readonly disposables: vscode.Disposable[] = [];
  private restrictedNoticeShown = false;
  /** The workspace's files for the system prompt: read by the first agent turn, and again after files came or went. */
  private overview = '';
  private overviewStale = true;
  private overviewWatched = false;

  constructor(
    private readonly log: Logger,
    semantic: SemanticSearch,
    storageRoot: vscode.Uri,
    workspaceState: vscode.Memento,
  ) {
    this.port = new VscodeWorkspacePort(semantic);
    this.vscodeTools = new VscodeTools(workspaceState, log);
    this.checkpoints = new CheckpointService(storageRoot, log, () => this.port.isTrusted());
    this.disposables.push(
      this.checkpoints,
      this.previews,
      this.approvals,
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        // Trust is read for every answer, so the next one offers the changing functions again.
        this.restrictedNoticeShown = false;
        this.log.info('Workspace trusted: the agent can propose edits and commands again.');
      }),
    );
  }

  /** The file list as of now: read through the port when files, folders or excludes changed since the last read. */
  private async currentOverview(signal: AbortSignal): Promise<string> {
    if (!this.overviewWatched) {
      // Watched from the first agent turn on, so a window that never uses the agent does no work for it.
      this.overviewWatched = true;
      const stale = (): void => {
        this.overviewStale = true;
      };
      const files = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
      this.disposables.push(
        files,
        files.onDidCreate(stale),
        files.onDidDelete(stale),
        vscode.workspace.onDidChangeWorkspaceFolders(stale),
        vscode.workspace.onDidChangeConfiguration((event) => {
          if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) stale();
        }),
      );
    }
    if (this.overviewStale) {
      this.overviewStale = false;
      try {
        this.overview = await workspaceOverview(this.port, signal);
      } catch (error) {
        this.overviewStale = true;
        if (signal.aborted) throw error;
        this.log.debug(`The workspace's file list for the agent was not read: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return this.overview;
  }

  /** Sets the policy that answers approvals instead of the panel; undefined gives them back to the user. Tests only. */
  setApprovalPolicy(policy: ApprovalPolicy | undefined): void {
    this.approvals.setPolicy(policy);
  }

  /** Behaves as in an (un)trusted workspace; undefined follows VS Code again. For tests of Restricted Mode. */
  overrideTrust(trusted: boolean | undefined): void {
    this.port.overrideTrust(trusted);
  }

  /**
   * Decides whether this answer runs the tool loop: the setting is on, the conversation is not about
   * audio and not in JSON mode, and the model can call tools. Otherwise it is a plain answer, and the
   * panel is told why when the user would expect tools.
   */
  plan(conversation: Conversation, model: ModelInfo | undefined, capabilities: readonly Capability[], toolModels: readonly string[]): AgentPlan {
    const settings = readAgentSettings();
    if (!settings.enabled) return { use: false };
    if (conversation.messages.some((message) => message.audio !== undefined)) return { use: false };
    if (conversation.options.jsonMode === 'object' || conversation.options.jsonMode === 'schema') {
      return { use: false, notice: vscode.l10n.t('JSON mode is on, so this answer does not use the workspace functions.') };
    }
    if (!capabilities.includes('tools')) {
      const id = model?.id ?? conversation.model;
      const cannot =
        id === undefined
          ? vscode.l10n.t('This model cannot call tools, so it answers without reading your workspace or proposing edits. Pick a model with tools for that.')
          : vscode.l10n.t('{0} cannot call tools, so it answers without reading your workspace or proposing edits. Pick a model with tools for that.', id);
      const others = toolModels.length > 0 ? vscode.l10n.t('Models that can: {0}.', toolModels.slice(0, 3).join(', ')) : undefined;
      return { use: false, notice: others === undefined ? cannot : `${cannot} ${others}` };
    }
    return { use: true, settings };
  }

  /** A notice for the panel when the workspace is restricted (once until trust changes). */
  restrictedNotice(): string | undefined {
    if (this.port.isTrusted() || this.restrictedNoticeShown) return undefined;
    this.restrictedNoticeShown = true;
    return vscode.l10n.t(
      'Restricted Mode: Cadenza can read and search this workspace, but it does not edit files or run commands until you trust the workspace.',
    );
  }

  /**
   * The functions of this answer, for the workspace's trust right now (over `port`, e.g. one a checkpoint
   * records): the agent's own, then the VS Code tools the user enabled (only read-only ones in Restricted Mode).
   */
  toolset(settings: AgentSettings, port: WorkspacePort = this.port): Toolset {
    const own = workspaceToolset(port, { terminalTimeoutSeconds: settings.terminalTimeoutSeconds });
    const external = this.vscodeTools.select(own.trusted, own.tools.length);
    if (external.tools.length === 0 && external.leftOut.length === 0) return own;
    const unavailable: Record<string, string> = { ...own.unavailable };
    for (const left of external.leftOut) {
      unavailable[left.name] =
        left.reason === 'restricted'
          ? `${left.name} is not available: the workspace is in Restricted Mode, where only tools marked read-only are offered.`
          : `${left.name} is not available: a request takes at most 128 functions.`;
    }
    return { tools: [...own.tools, ...external.tools], unavailable, trusted: own.trusted };
  }

  /** Tokens the tool schemas add to every request (the context budget reserves them). */
  schemaTokens(settings: AgentSettings, mode: AgentMode = 'act'): number {
    return estimateTokens(JSON.stringify(toolsForMode(this.toolset(settings).tools, mode).map((tool) => tool.definition)));
  }

  /** The agent's system prompt for `mode` (Plan asks for a plan) with the workspace's files, put before the user's own. */
  async systemPrompt(userPrompt: string | undefined, signal: AbortSignal, mode: AgentMode = 'act'): Promise<string> {
    const overview = await this.currentOverview(signal);
    return [agentSystemPrompt(this.port.isTrusted(), overview, mode), userPrompt?.trim() ?? ''].filter((part) => part !== '').join('\n\n');
  }

  /** What the tools remember for a conversation (the files the model read). */
  session(conversationId: string): ToolSession {
    let session = this.sessions.get(conversationId);
    if (!session) {
      session = new ToolSession();
      this.sessions.set(conversationId, session);
    }
    return session;
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.sessions.clear();
  }
}
