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
import type { ApprovalBroker } from '../tools/approvals';
import { commandIds } from '../ids';
import { readSettings, workspaceSystemPromptNotice } from '../settings';
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

/**
 * The chat panel: a webview view in Cadenza's activity-bar container. Messages to the webview are
 * queued until it says `ready`; every incoming message is validated before it is routed.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: ToWebview[] = [];
  private controller: ChatController | undefined;
  private audio: PanelAudio | undefined;
  private approvals: ApprovalBroker | undefined;
  private mentions: MentionService | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly viewDisposables: vscode.Disposable[] = [];
  private readonly resolvedEmitter = new vscode.EventEmitter<void>();
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  private readonly sentEmitter = new vscode.EventEmitter<ToWebview>();

  /** Fires each time the view is resolved (tests wait on it). */
  readonly onDidResolve = this.resolvedEmitter.event;
  /** Fires when the webview says `ready`. */
  readonly onDidBecomeReady = this.readyEmitter.event;
  /** Fires for every message posted to the webview (tests observe the panel's traffic). */
  readonly onDidPost = this.sentEmitter.event;

  constructor(private readonly host: HostContext) {}

  /** Connects the chat logic and the panel's audio; done by the composition root once they exist. */
  attach(controller: ChatController, audio: PanelAudio): void {
    this.controller = controller;
    this.audio = audio;
  }

  /** Connects the composer's @-mentions (the `@` list and the chips). */
  attachMentions(mentions: MentionService): void {
    this.mentions = mentions;
  }

  /** Connects the agent's approvals: the panel shows the edit allowance while it holds, and showing another conversation ends it. */
  attachApprovals(approvals: ApprovalBroker): void {
    this.approvals = approvals;
    this.disposables.push(approvals.onDidChangeAllowance((conversationId) => this.post({ type: 'agent/allowance', conversationId })));
  }

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  get isReady(): boolean {
    return this.ready;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.ready = false;
    const extensionUri = this.host.extension.extensionUri;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    view.webview.html = webviewHtml(view.webview, extensionUri, 'Cadenza');
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => void this.handle(message)),
      view.onDidDispose(() => this.disposeView()),
      this.host.apiKey.onDidChange(() => void this.postConnectionState()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('cadenza.baseUrl')) void this.postConnectionState();
        if (event.affectsConfiguration('cadenza.chat.systemPrompt')) this.postWorkspacePrompt();
      }),
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
    const chat = this.controller;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        await this.postConnectionState();
        for (const queued of this.queue.splice(0)) this.deliver(queued);
        await chat?.showAll();
        this.post({ type: 'agent/allowance', conversationId: this.approvals?.allowedConversation });
        this.postWorkspacePrompt();
        this.mentions?.warm();
        this.readyEmitter.fire();
        return;
      case 'chat/send':
        await this.send(message);
        return;
      case 'chat/stop':
        chat?.stop();
        return;
      case 'chat/regenerate':
        await chat?.regenerate(message.options);
        return;
      case 'chat/editResend':
        await chat?.editResend(message.messageId, message.text, message.options);
        return;
      case 'chat/retry':
        await chat?.retry(message.trim, message.options);
        return;
      case 'chat/retrySave':
        await chat?.retrySave(message.messageId);
        return;
      case 'conversation/new':
        await chat?.newConversation();
        return;
      case 'conversation/switch':
        await chat?.switchTo(message.id);
        return;
      case 'conversation/rename':
        await chat?.rename(message.id);
        return;
      case 'conversation/delete':
        await chat?.delete(message.id);
        return;
      case 'conversation/export':
        await this.exportConversation(message.id);
        return;
      case 'model/select':
        await chat?.selectModel(message.modelId);
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
        await this.audio?.pick();
        return;
      case 'audio/transcribeIntoPrompt':
        await this.audio?.transcribeIntoPrompt();
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
        chat?.agent?.approvals.answer(message.callId, message.decision);
        return;
      case 'tool/showDiff':
        await chat?.agent?.approvals.showDiff(message.callId);
        return;
      case 'mention/query': {
        const candidates = (await this.mentions?.query(message.query)) ?? [];
        this.post({ type: 'mention/candidates', requestId: message.requestId, query: message.query, candidates });
        return;
      }
      case 'mention/attach':
        if (this.mentions) this.post({ type: 'composer/mention', mention: await this.mentions.attach(message.candidate) });
        return;
      case 'instructions/open':
        await chat?.openInstructions(message.path);
        return;
      case 'agent/endAllowance':
        this.approvals?.endAllowance();
        return;
      case 'checkpoint/showChanges':
        await chat?.agent?.checkpoints.showChanges(message.id);
        return;
      case 'checkpoint/restore':
        await chat?.restoreCheckpoint(message.id);
        return;
      case 'chat/condense':
        await chat?.condense(undefined, undefined, message.maxTokens);
        return;
      case 'condense/edit':
        await chat?.editSummary(message.summary);
        return;
      case 'tools/list':
        if (chat?.agent) this.post(toolsMenuState(chat.agent));
        return;
      case 'tools/enable':
        if (chat?.agent) this.post(await enableTool(chat.agent, message.name, message.enabled));
        return;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }

  /** Says so in the panel when the workspace sets the system prompt (see workspaceSystemPromptNotice). */
  private postWorkspacePrompt(): void {
    const text = workspaceSystemPromptNotice();
    if (text !== undefined) this.post({ type: 'notice', level: 'warning', text });
  }

  /** `chat/send`: an audio token is exchanged for the audio the host kept; a bad one stops the send with a notice. */
  private async send(message: Extract<FromWebview, { type: 'chat/send' }>): Promise<void> {
    const chat = this.controller;
    if (!chat) return;
    // The webview is untrusted input: its image is checked again, as image/check does, before it is stored and sent.
    const image = message.image === undefined ? undefined : checkDataUrl(message.image);
    if (typeof image === 'string') {
      this.post({ type: 'notice', level: 'error', text: image });
      return;
    }
    const audio = message.audio === undefined || !this.audio ? undefined : await this.audio.take(message.audio, (await chat.current()).model);
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
    const conversation = await this.controller?.load(id);
    if (!conversation) return;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: conversationToMarkdown(conversation) });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  private async postConnectionState(): Promise<void> {
    const hasKey = (await this.host.apiKey.get()) !== undefined;
    this.post({ type: 'state/connection', state: { baseUrl: readSettings().baseUrl, hasKey } });
  }

  /** Sends a message now, or queues it until the webview is ready. */
  post(message: ToWebview): void {
    // The allowance belongs to one conversation: it ends when the panel shows another.
    if (message.type === 'conversation/show') this.approvals?.conversationShown(message.conversation.id);
    if (this.view && this.ready) this.deliver(message);
    else if (message.type !== 'chat/delta' && message.type !== 'chat/reasoning') this.queue.push(message);
    // Deltas are not queued: a hidden panel gets the whole answer from `conversation/show` on `ready`.
  }

  private deliver(message: ToWebview): void {
    void this.view?.webview.postMessage(message);
    this.sentEmitter.fire(message);
  }

  private disposeView(): void {
    for (const disposable of this.viewDisposables.splice(0)) disposable.dispose();
    this.view = undefined;
    this.ready = false;
  }

  dispose(): void {
    this.disposeView();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.resolvedEmitter.dispose();
    this.readyEmitter.dispose();
    this.sentEmitter.dispose();
  }
}
