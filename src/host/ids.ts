// Kept free of `vscode` imports so the plain-Node unit test can check it against package.json.

/** Command ids, declared once (house style); package.json contributes exactly these. */
export const commandIds = {
  setApiKey: 'cadenza.setApiKey',
  clearApiKey: 'cadenza.clearApiKey',
  showLog: 'cadenza.showLog',
  openChat: 'cadenza.openChat',
  newChat: 'cadenza.newChat',
  selectModel: 'cadenza.selectModel',
  refreshModels: 'cadenza.refreshModels',
  explainSelection: 'cadenza.explainSelection',
  askAboutSelection: 'cadenza.askAboutSelection',
  rewriteSelection: 'cadenza.rewriteSelection',
  addSelectionToChat: 'cadenza.addSelectionToChat',
  transcribeAudio: 'cadenza.transcribeAudio',
  transcribeAudioWithOptions: 'cadenza.transcribeAudioWithOptions',
  translateAudio: 'cadenza.translateAudio',
  askAboutAudio: 'cadenza.askAboutAudio',
  search: 'cadenza.search',
  indexRebuild: 'cadenza.index.rebuild',
  indexPause: 'cadenza.index.pause',
  indexStatus: 'cadenza.index.status',
  indexSetTeamConnection: 'cadenza.index.setTeamConnection',
  createInstructions: 'cadenza.createInstructions',
  newPromptFile: 'cadenza.newPromptFile',
  toggleCompletions: 'cadenza.toggleCompletions',
  snoozeCompletions: 'cadenza.snoozeCompletions',
} as const;

/** View and view-container ids; package.json contributes exactly these. */
export const viewIds = {
  container: 'cadenza',
  chat: 'cadenza.chat',
} as const;

/** The @cadenza participant's slash commands; package.json's `chatParticipants` declares exactly these. */
export const participantCommandNames = ['explain', 'search', 'transcribe'] as const;
