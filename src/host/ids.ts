/** Command and view ids, declared once (house style). package.json contributes the same ids; a test checks. */
export const commandIds = {
  setApiKey: 'cadenza.setApiKey',
  clearApiKey: 'cadenza.clearApiKey',
  showLog: 'cadenza.showLog',
  openChat: 'cadenza.openChat',
} as const;

export const viewIds = {
  container: 'cadenza',
  chat: 'cadenza.chat',
} as const;
