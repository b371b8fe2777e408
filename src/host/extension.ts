import * as vscode from 'vscode';
import { exportedApi, panelTestApi, type CadenzaApi, type CadenzaPublicApi } from './api';
import { ApiKeyStore } from './apiKeyStore';
import { askAboutAudio } from './audio/askAboutAudio';
import { PanelAudio } from './audio/panelAudio';
import { transcribeCommand } from './audio/transcribeCommand';
import { ChatController } from './chat/chatController';
import { ProjectInstructions } from './chat/projectInstructions';
import { MentionService } from './chat/context/mentionService';
import { ServiceConnection } from './service/connection';
import { ChatStatusBar } from './chat/statusBar';
import { addSelectionToChat } from './commands/addSelectionToChat';
import { clearApiKey } from './commands/clearApiKey';
import { askAboutCode } from './commands/explainSelection';
import { openChat } from './commands/openChat';
import { ProposalProvider, proposalScheme, rewriteSelection } from './commands/rewriteSelection';
import { selectModel } from './commands/selectModel';
import { setApiKey } from './commands/setApiKey';
import { showLog } from './commands/showLog';
import type { HostContext } from './context';
import { seedDevelopmentKey } from './devBootstrap';
import { commandIds, viewIds } from './ids';
import { createLog } from './log';
import { ChatViewProvider } from './views/chatViewProvider';
import { wireAllowance } from './panel/allowance';
import { PanelConnectionState } from './panel/connectionState';
import { PanelChannel } from './panel/panelChannel';
import type { PanelPort } from './panel/panelPort';
import { PanelRouter } from './panel/router';
import { routingTable } from './panel/routingTable';
import type { WorkspaceContextProvider } from './chat/turnTypes';
import { IndexService } from './index/indexService';
import { indexStatus, pauseIndex, rebuildIndex } from './commands/indexCommands';
import { setTeamConnection } from './commands/setTeamConnection';
import { searchCommand } from './commands/search';
import { AgentService } from './tools/agentService';
import { indexSearch } from './tools/indexSearch';
import { registerVscodeChat } from './lm/vscodeChat';
import { CompletionService } from './completions/completionService';
import { CompletionStatusBar } from './completions/completionStatusBar';
import { toggleCompletions } from './commands/toggleCompletions';
import { snoozeCompletions } from './commands/snoozeCompletions';
import { WorkspaceSettingsNotice } from './workspaceSettingsNotice';
import { PromptLibrary } from './prompts/promptLibrary';
import { PanelPrompts } from './chat/panelPrompts';
import { newPromptFile } from './commands/newPromptFile';

export type { CadenzaApi } from './api';

/** The composition root: wires core and host, registers everything, and does nothing else. */
export function activate(extension: vscode.ExtensionContext): CadenzaApi | CadenzaPublicApi {
  const started = performance.now();
  const log = createLog();
  const apiKey = new ApiKeyStore(extension.secrets);
  const host: HostContext = { extension, log, apiKey };
  // Commands take their arguments as given only from the extension's own tests: elsewhere any extension
  // can pass them, so an argument that changes a key, the team connection or the index is confirmed first.
  const trustArguments = extension.extensionMode === vscode.ExtensionMode.Test;
  // The panel's channel comes first: everything that talks to the panel is given it when it is built.
  const channel = new PanelChannel();
  const connection = new ServiceConnection(host);
  const statusBar = new ChatStatusBar();
  const proposals = new ProposalProvider();
  const index = new IndexService(host, connection);
  const workspaceContext: WorkspaceContextProvider = (query, budget, signal) => index.workspaceContext(query, budget, signal);
  const agent = new AgentService(log, indexSearch(index), extension.globalStorageUri, extension.workspaceState);
  const instructions = new ProjectInstructions(log);
  const mentions = new MentionService(log, workspaceContext);
  const chat = new ChatController(host, connection, channel, { agent, instructions, mentions, workspaceContext });
  const panelAudio = new PanelAudio(host, connection, channel);
  const connectionState = new PanelConnectionState(host, channel);
  const prompts = new PromptLibrary(log, extension.globalStorageUri);
  const panelPrompts = new PanelPrompts(prompts, connection, (message) => channel.post(message));
  const router = new PanelRouter(
    host,
    channel,
    routingTable({ host, channel, chat, audio: panelAudio, agent, mentions, connectionState, prompts: panelPrompts }),
  );
  const chatView = new ChatViewProvider(host, channel, (message) => router.handle(message));
  const panel: PanelPort = { reveal: () => chatView.reveal(), post: (message) => channel.post(message) };
  const vscodeChat = registerVscodeChat(host, connection, index, chat, prompts);
  const completions = new CompletionService(host, connection, index);
  const completionStatusBar = new CompletionStatusBar(completions);
  statusBar.setCompletionUsage(completions.usageSummary());
  const settingsNotice = new WorkspaceSettingsNotice(extension.workspaceState, log);

  extension.subscriptions.push(
    log,
    apiKey,
    channel,
    connection,
    chatView,
    connectionState,
    wireAllowance(channel, agent.approvals),
    chat,
    statusBar,
    proposals,
    index,
    agent,
    instructions,
    prompts,
    mentions,
    ...vscodeChat.disposables,
    completions,
    completionStatusBar,
    settingsNotice,
    completions.onDidChangeState(() => statusBar.setCompletionUsage(completions.usageSummary())),
    chat.onDidChangeModel((model) => statusBar.setModel(model)),
    chat.onDidAnswer((usage) => statusBar.addUsage(usage)),
    vscode.window.registerWebviewViewProvider(viewIds.chat, chatView),
    vscode.workspace.registerTextDocumentContentProvider(proposalScheme, proposals),
    vscode.commands.registerCommand(commandIds.setApiKey, (key?: unknown, role?: unknown) => setApiKey(host, key, role, trustArguments)),
    vscode.commands.registerCommand(commandIds.clearApiKey, (role?: unknown) => clearApiKey(host, role, trustArguments)),
    vscode.commands.registerCommand(commandIds.showLog, () => showLog(host)),
    vscode.commands.registerCommand(commandIds.openChat, () => openChat()),
    vscode.commands.registerCommand(commandIds.newChat, async () => {
      await openChat();
      await chat.newConversation();
    }),
    vscode.commands.registerCommand(commandIds.selectModel, (model?: unknown) => selectModel(connection, chat, model)),
    vscode.commands.registerCommand(commandIds.refreshModels, async () => (await connection.refreshModels()).map((model) => model.id)),
    vscode.commands.registerCommand(commandIds.explainSelection, () => askAboutCode(chat, panel, 'explain')),
    vscode.commands.registerCommand(commandIds.askAboutSelection, () => askAboutCode(chat, panel, 'ask')),
    vscode.commands.registerCommand(commandIds.rewriteSelection, () => rewriteSelection(connection, chat, proposals)),
    vscode.commands.registerCommand(commandIds.addSelectionToChat, () => addSelectionToChat(panel)),
    vscode.commands.registerCommand(commandIds.transcribeAudio, (first?: unknown, second?: unknown) =>
      transcribeCommand(host, connection, 'transcribe', first, second),
    ),
    vscode.commands.registerCommand(commandIds.translateAudio, (first?: unknown, second?: unknown) =>
      transcribeCommand(host, connection, 'translate', first, second),
    ),
    vscode.commands.registerCommand(commandIds.transcribeAudioWithOptions, (first?: unknown, second?: unknown) =>
      transcribeCommand(host, connection, 'transcribe', first, second, 'pickers'),
    ),
    vscode.commands.registerCommand(commandIds.search, (query?: unknown) => searchCommand(index, query)),
    vscode.commands.registerCommand(commandIds.indexRebuild, (argument?: unknown) => rebuildIndex(index, argument, trustArguments)),
    vscode.commands.registerCommand(commandIds.indexPause, () => pauseIndex(index)),
    vscode.commands.registerCommand(commandIds.indexStatus, () => indexStatus(index)),
    vscode.commands.registerCommand(commandIds.indexSetTeamConnection, (argument?: unknown) => setTeamConnection(host, index, argument, trustArguments)),
    vscode.commands.registerCommand(commandIds.createInstructions, async () => (await instructions.create())?.toString()),
    vscode.commands.registerCommand(commandIds.newPromptFile, (name?: unknown, where?: unknown) => newPromptFile(prompts, name, where)),
    vscode.commands.registerCommand(commandIds.toggleCompletions, (value?: unknown) => toggleCompletions(value)),
    vscode.commands.registerCommand(commandIds.snoozeCompletions, (minutes?: unknown) => snoozeCompletions(completions, minutes)),
    vscode.commands.registerCommand(commandIds.askAboutAudio, (first?: unknown, second?: unknown) => askAboutAudio(connection, chat, panel, first, second)),
  );
  void chat.current().then((conversation) => statusBar.setModel(conversation.model));
  void seedDevelopmentKey(extension, apiKey, log);
  log.info(`Cadenza activated in ${(performance.now() - started).toFixed(1)} ms (VS Code ${vscode.version}).`);
  // The index starts after activation has returned, so activation stays light.
  setTimeout(() => void index.start(), 0);
  setTimeout(() => void settingsNotice.check(), 0);
  const storage = {
    conversationsFolder: chat.conversationsFolder,
    workspaceState: extension.workspaceState,
    globalState: extension.globalState,
    secrets: extension.secrets,
  };
  return exportedApi(extension.extensionMode, {
    chatView: panelTestApi(chatView, channel, router),
    storage,
    panelAudio,
    connection,
    index,
    agent,
    lm: vscodeChat.api,
    prompts,
    completions,
    statusBars: { chat: statusBar, completions: completionStatusBar },
    mentions,
    settingsNotice,
  });
}

export function deactivate(): void {
  // Everything is owned by extension.subscriptions and disposed by VS Code.
}
