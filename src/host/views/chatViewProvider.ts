import * as vscode from 'vscode';
import { conversationToMarkdown } from '../../core/chat/conversation';
import { isFromWebview, type FromWebview, type ToWebview } from '../../shared/protocol';
import type { PanelAudio } from '../audio/panelAudio';
import type { ChatController } from '../chat/chatController';
import type { MentionService } from '../chat/context/mentionService';
import { copyCode, insertCode, openCode, replaceSelection } from '../chat/codeActions';
import { checkDataUrl, pickImage } from '../chat/images';
import { enableTool, toolsMenuState } from '../chat/toolsMenu';
import type { HostContext } from '../context';
import type { PanelConnectionState } from '../panel/connectionState';
import type { PanelChannel } from '../panel/panelChannel';
import type { AgentService } from '../tools/agentService';
import { commandIds } from '../ids';
import { webviewHtml } from './webviewHtml';

/** Opens a cited workspace location; the URI comes from the webview, so only files inside the workspace open. */
async function openSource(uriText: string, startLine: number): Promise<void> {
  const uri = vscode.Uri.parse(uriText, true);
  if (uri.scheme !== 'file' || vscode.workspace.getWorkspaceFolder(uri) === undefined) return;
  const line = Math.max(0, Math.floor(startLine) - 1);
  const document = await vscode.workspace.openTextDocument(uri);
  const position = new vscode.Position(Math.min(line, document.lineCount - 1), 0);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: true, viewColumn: vscode.ViewColumn.One });
}

/** What the panel's messages reach, built before the view (activate() constructs in this order). */
export interface PanelDeps {
  readonly chat: ChatController;
  readonly audio: PanelAudio;
  readonly agent: AgentService;
  readonly mentions: MentionService;
  readonly connectionState: PanelConnectionState;
}

/**
 * The chat panel: a webview view in Cadenza's activity-bar container. What it is sent goes through the
 * panel's channel (queued until the webview says `ready`); every incoming message is validated before it is routed.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly viewDisposables: vscode.Disposable[] = [];
  private readonly resolvedEmitter = new vscode.EventEmitter<void>();

  /** Fires each time the view is resolved (tests wait on it). */
  readonly onDidResolve = this.resolvedEmitter.event;
  /** Fires for every message posted to the webview (tests observe the panel's traffic). */
  readonly onDidPost: vscode.Event<ToWebview>;

  constructor(private readonly host: HostContext, private readonly channel: PanelChannel, private readonly deps: PanelDeps) {
    this.onDidPost = channel.onDidPost;
  }

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  get isReady(): boolean {
    return this.channel.isReady;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.channel.connect(view.webview);
    const extensionUri = this.host.extension.extensionUri;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    view.webview.html = webviewHtml(view.webview, extensionUri, 'Cadenza');
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => void this.handle(message)),
      view.onDidDispose(() => this.disposeView()),
    );
    this.resolvedEmitter.fire();
  }

  /** Reveals the panel (creating it if needed). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand('cadenza.chat.focus');
  }

  /**
   * Validates one message from the webview and routes it; resolves when it has been handled. A failure is
   * logged and shown in the panel, never thrown. (The integration suites post through here too.)
   */
  async handle(message: unknown): Promise<void> {
    if (!isFromWebview(message)) {
      this.host.log.warn('Ignored a malformed message from the chat panel.');
      return;
    }
    await this.route(message).catch((error: unknown) => {
      this.host.log.error(error instanceof Error ? error : String(error));
      this.post({ type: 'notice', level: 'error', text: error instanceof Error ? error.message : String(error) });
    });
  }

  private async route(message: FromWebview): Promise<void> {
    const { chat, audio, agent, mentions, connectionState } = this.deps;
    switch (message.type) {
      case 'ready':
        this.channel.markReady([await connectionState.message()]);
        await chat.showAll();
        this.post({ type: 'agent/allowance', conversationId: agent.approvals.allowedConversation });
        connectionState.postWorkspacePrompt();
        mentions.warm();
        return;
      case 'chat/send':
        await this.send(message);
        return;
      case 'chat/stop':
        chat.stop();
        return;
      case 'chat/regenerate':
        await chat.regenerate(message.options);
        return;
      case 'chat/editResend':
        await chat.editResend(message.messageId, message.text, message.options);
        return;
      case 'chat/retry':
        await chat.retry(message.trim, message.options);
        return;
      case 'chat/retrySave':
        await chat.retrySave(message.messageId);
        return;
      case 'conversation/new':
        await chat.newConversation();
        return;
      case 'conversation/switch':
        await chat.switchTo(message.id);
        return;
      case 'conversation/rename':
        await chat.rename(message.id);
        return;
      case 'conversation/delete':
        await chat.delete(message.id);
        return;
      case 'conversation/export':
        await this.exportConversation(message.id);
        return;
      case 'model/select':
        await chat.selectModel(message.modelId);
        return;
      case 'model/refresh':
        await vscode.commands.executeCommand(commandIds.refreshModels);
        return;
      case 'code/copy':
        await copyCode(message.code);
        return;
      case 'code/insert':
        await insertCode(message.code);
        return;
      case 'code/replaceSelection':
        await replaceSelection(message.code);
        return;
      case 'code/open':
        await openCode(message.code, message.language);
        return;
      case 'image/pick':
        this.postImage(await pickImage());
        return;
      case 'image/check':
        this.postImage(checkDataUrl(message.image));
        return;
      case 'audio/pick':
        await audio.pick();
        return;
      case 'audio/transcribeIntoPrompt':
        await audio.transcribeIntoPrompt();
        return;
      case 'schema/pick':
        await this.pickSchema();
        return;
      case 'source/open':
        await openSource(message.uri, message.startLine);
        return;
      case 'action/run':
        await this.runAction(message.action);
        return;
      case 'tool/approve':
        agent.approvals.answer(message.callId, message.decision);
        return;
      case 'tool/showDiff':
        await agent.approvals.showDiff(message.callId);
        return;
      case 'mention/query': {
        const candidates = await mentions.query(message.query);
        this.post({ type: 'mention/candidates', requestId: message.requestId, query: message.query, candidates });
        return;
      }
      case 'mention/attach':
        this.post({ type: 'composer/mention', mention: await mentions.attach(message.candidate) });
        return;
      case 'instructions/open':
        await chat.openInstructions(message.path);
        return;
      case 'agent/endAllowance':
        agent.approvals.endAllowance();
        return;
      case 'checkpoint/showChanges':
        await agent.checkpoints.showChanges(message.id);
        return;
      case 'checkpoint/restore':
        await chat.restoreCheckpoint(message.id);
        return;
      case 'chat/condense':
        await chat.condense(undefined, undefined, message.maxTokens);
        return;
      case 'condense/edit':
        await chat.editSummary(message.summary);
        return;
      case 'tools/list':
        this.post(toolsMenuState(agent));
        return;
      case 'tools/enable':
        this.post(await enableTool(agent, message.name, message.enabled));
        return;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }

  /** `chat/send`: an audio token is exchanged for the audio the host kept; a bad one stops the send with a notice. */
  private async send(message: Extract<FromWebview, { type: 'chat/send' }>): Promise<void> {
    const { chat, audio: panelAudio } = this.deps;
    // The webview is untrusted input: its image is checked again, as image/check does, before it is stored and sent.
    const image = message.image === undefined ? undefined : checkDataUrl(message.image);
    if (typeof image === 'string') {
      this.post({ type: 'notice', level: 'error', text: image });
      return;
    }
    const audio = message.audio === undefined ? undefined : await panelAudio.take(message.audio, (await chat.current()).model);
    if (typeof audio === 'string') {
      // An error notice also tells the composer the send failed, so the typed text and the chip stay.
      this.post({ type: 'notice', level: 'error', text: audio });
      return;
    }
    await chat.send(message.text, message.options, image, audio, message.mentions ?? []);
  }

  private async runAction(action: Extract<FromWebview, { type: 'action/run' }>['action']): Promise<void> {
    switch (action) {
      case 'setApiKey':
        await vscode.commands.executeCommand(commandIds.setApiKey);
        return;
      case 'selectModel':
        await vscode.commands.executeCommand(commandIds.selectModel);
        return;
      case 'showLog':
        await vscode.commands.executeCommand(commandIds.showLog);
        return;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'cadenza');
        return;
      default: {
        const unreachable: never = action;
        return unreachable;
      }
    }
  }

  private postImage(result: Awaited<ReturnType<typeof pickImage>>): void {
    if (result === undefined) return;
    if (typeof result === 'string') this.post({ type: 'notice', level: 'warning', text: result });
    else this.post({ type: 'composer/image', image: result });
  }

  private async pickSchema(): Promise<void> {
    const files = await vscode.workspace.findFiles('**/*.json', '**/node_modules/**', 500);
    const picked = await vscode.window.showQuickPick(
      files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
      { title: 'JSON schema for the answer', placeHolder: 'Pick a .json schema file from the workspace' },
    );
    if (!picked) return;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(picked.uri));
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      this.post({ type: 'composer/schema', name: picked.label, schema: text });
    } catch {
      this.post({ type: 'notice', level: 'warning', text: `${picked.label} is not a JSON schema object.` });
    }
  }

  private async exportConversation(id: string): Promise<void> {
    const conversation = await this.deps.chat.load(id);
    if (!conversation) return;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: conversationToMarkdown(conversation) });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  /** Sends a message now, or queues it until the webview is ready. */
  post(message: ToWebview): void {
    this.channel.post(message);
  }

  private disposeView(): void {
    for (const disposable of this.viewDisposables.splice(0)) disposable.dispose();
    this.view = undefined;
    this.channel.disconnect();
  }

  dispose(): void {
    this.disposeView();
    this.resolvedEmitter.dispose();
  }
}
