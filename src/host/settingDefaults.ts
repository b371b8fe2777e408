// Kept free of `vscode` imports so the plain-Node unit test can check it against package.json.

/** Defaults of every `cadenza.*` setting, keyed without the `cadenza.` prefix; package.json declares the same. */
export const settingDefaults = {
  baseUrl: 'https://api.sambanova.ai',
  chatBaseUrl: '',
  requestTimeoutSeconds: 60,
  maxRetries: 2,
  'models.overrides': {},
  'chat.model': '',
  'chat.temperature': null,
  'chat.topP': null,
  'chat.topK': null,
  'chat.maxTokens': null,
  'chat.stop': [],
  'chat.systemPrompt': '',
  'audio.output': 'document',
  'audio.concurrency': 2,
  'index.mode': 'ask',
  'index.model': 'E5-Mistral-7B-Instruct',
  'index.maxFileSizeKB': 1024,
  'index.batchSize': 32,
  'index.concurrency': 2,
  'index.debounceMs': 1500,
  'agent.enabled': true,
  'agent.maxSteps': 8,
  'agent.maxToolResultTokens': 4000,
  'agent.terminalTimeoutSeconds': 60,
} as const satisfies Record<string, unknown>;
