/* global window, document, location */
// The sandbox's scripted host: on `ready` it replays a scenario (?scenario=conversation, streaming,
// errors, options, agent, plan, nokey, bench) and then answers the panel's messages roughly like the real host
// (send → user message, placeholder, streamed deltas, done with usage; stop; regenerate; conversations;
// models; images; audio; schemas). Knobs for tests: __sandbox.failNextSend, __sandbox.holdStream.
(() => {
  const sandbox = window.__sandbox;
  const scenario = new URLSearchParams(location.search).get('scenario') ?? 'conversation';
  const send = (message) => sandbox.send(message);
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  const models = [
    {
      id: 'Meta-Llama-3.3-70B-Instruct',
      capabilities: ['chat', 'tools', 'json'],
      contextLength: 131072,
      maxCompletionTokens: 4096,
      pricePerMillionInput: 0.6,
      pricePerMillionOutput: 1.2,
    },
    {
      id: 'Llama-4-Maverick-17B-128E-Instruct',
      capabilities: ['chat', 'vision', 'tools', 'json'],
      contextLength: 131072,
      maxCompletionTokens: 4096,
      pricePerMillionInput: 0.63,
      pricePerMillionOutput: 1.8,
    },
    { id: 'DeepSeek-R1-0528', capabilities: ['chat'], contextLength: 32768, maxCompletionTokens: 8192, pricePerMillionInput: 5, pricePerMillionOutput: 7 },
    {
      id: 'Qwen2-Audio-7B-Instruct',
      capabilities: ['chat', 'audioReasoning', 'transcription'],
      contextLength: 8192,
      maxCompletionTokens: 1000,
      pricePerMillionInput: 0.5,
      pricePerMillionOutput: 0.5,
    },
    { id: 'Whisper-Large-v3', capabilities: ['transcription'] },
    { id: 'E5-Mistral-7B-Instruct', capabilities: ['embeddings'], contextLength: 4096 },
  ];
  let selected =
    scenario === 'options' ? 'Llama-4-Maverick-17B-128E-Instruct' : scenario === 'audio' ? 'Qwen2-Audio-7B-Instruct' : 'Meta-Llama-3.3-70B-Instruct';
  /** What the host would answer to `audio/pick`: the file's facts and a token (the audio stays in the host). */
  const sampleAudio = { token: 'sandbox-audio-0001', name: 'standup-2024-05-02.m4a', bytes: 412_314, seconds: 27.4 };
  const restrictedTools = scenario === 'toolsRestricted';
  /** What the host would list in the tools menu: an extension's tools, an MCP server's, VS Code's own. */
  let vscodeTools = [
    {
      name: 'renderChart',
      wireName: 'renderChart',
      description: 'Renders a bar chart of the given values as a PNG image.',
      source: 'acme.charts',
      kind: 'extension',
      readOnly: true,
      tokens: 63,
      enabled: true,
      blocked: false,
    },
    {
      name: 'mcp_notes_add_note',
      wireName: 'mcp_notes_add_note',
      description: "Adds a note with a title and a body to the user's notes.",
      source: 'MCP server notes',
      kind: 'mcp',
      readOnly: false,
      tokens: 71,
      enabled: !restrictedTools,
      blocked: restrictedTools,
    },
    {
      name: 'read_file',
      wireName: 'vscode_read_file',
      description: 'Reads a file from the notes store.',
      source: 'acme.notes',
      kind: 'extension',
      readOnly: true,
      tokens: 52,
      enabled: false,
      blocked: false,
    },
    {
      name: 'run_task',
      wireName: 'run_task',
      description: 'Runs a VS Code task.',
      source: 'VS Code',
      kind: 'vscode',
      readOnly: false,
      tokens: 60,
      enabled: false,
      blocked: restrictedTools,
    },
  ];
  const now = Date.now();
  const conversations = [
    { id: 'c1', title: 'Debounce fires twice', updatedAt: now - 4 * 60_000 },
    { id: 'c2', title: 'Extract invoice fields', updatedAt: now - 3 * 3600_000 },
    { id: 'c3', title: 'Explain the retry policy', updatedAt: now - 2 * 86_400_000 },
    { id: 'c4', title: 'SQL: latest order per customer', updatedAt: now - 20 * 86_400_000 },
  ];

  /** A small generated PNG (a gradient with a shape), as the data URL an attachment would carry. */
  function sampleImage() {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 100;
    const context = canvas.getContext('2d');
    const gradient = context.createLinearGradient(0, 0, 160, 100);
    gradient.addColorStop(0, '#3a7bd5');
    gradient.addColorStop(1, '#00d2ff');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 160, 100);
    context.fillStyle = '#ffffff';
    context.fillRect(20, 20, 70, 12);
    context.fillRect(20, 40, 110, 8);
    context.fillRect(20, 56, 90, 8);
    const dataUrl = canvas.toDataURL('image/png');
    return { name: 'screenshot.png', dataUrl, bytes: Math.round((dataUrl.length - 22) * 0.75) };
  }

  const debounceQuestion =
    'Why does this debounce fire twice when I type fast?\n\nsrc/search.ts:\n```ts\nexport function debounce(fn: () => void, ms: number) {\n  let timer: number | undefined;\n  return () => {\n    timer = setTimeout(fn, ms);\n  };\n}\n```\n';
  const debounceAnswer = [
    'The timer is **never cleared**, so every keystroke schedules its own call: typing fast queues several `fn` calls instead of one.',
    '',
    'Fix it by cancelling the pending timer before starting a new one:',
    '',
    '```ts',
    'export function debounce<T extends unknown[]>(fn: (...args: T) => void, ms: number) {',
    '  let timer: ReturnType<typeof setTimeout> | undefined;',
    '  return (...args: T): void => {',
    '    clearTimeout(timer); // drop the previous call',
    '    timer = setTimeout(() => fn(...args), ms);',
    '  };',
    '}',
    '```',
    '',
    'What changes:',
    '',
    '1. `clearTimeout` cancels the call scheduled by the previous keystroke.',
    '2. The arguments of the *last* call are the ones used.',
    '3. `ReturnType<typeof setTimeout>` works in Node and in browsers.',
    '',
    '| Typing | Before | After |',
    '| --- | :---: | ---: |',
    '| 5 keys in 200 ms | 5 calls | 1 call |',
    '| 1 key | 1 call | 1 call |',
    '',
    '> Tip: see [MDN on clearTimeout](https://developer.mozilla.org/docs/Web/API/clearTimeout).',
  ].join('\n');

  const image = sampleImage();
  const mainConversation = {
    id: 'c1',
    title: 'Debounce fires twice',
    model: 'Meta-Llama-3.3-70B-Instruct',
    options: { temperature: 0.2 },
    messages: [
      { id: 'u1', role: 'user', text: debounceQuestion },
      {
        id: 'a1',
        role: 'assistant',
        model: 'Meta-Llama-3.3-70B-Instruct',
        text: debounceAnswer,
        usage: {
          promptTokens: 1240,
          completionTokens: 312,
          timeToFirstTokenMs: 410,
          tokensPerSecond: 268.4,
          totalTimeMs: 1570,
          costUsd: 0.00112,
          source: 'service',
        },
      },
      { id: 'u2', role: 'user', text: 'What is in this screenshot?', imageDataUrl: image.dataUrl },
      {
        id: 'a2',
        role: 'assistant',
        model: 'Llama-4-Maverick-17B-128E-Instruct',
        text: 'A blue gradient with **three white bars**, like a wireframe of a heading and two lines of text.',
        usage: {
          promptTokens: 812,
          completionTokens: 24,
          timeToFirstTokenMs: 930,
          tokensPerSecond: 41.2,
          totalTimeMs: 1510,
          costUsd: 0.000555,
          source: 'client',
        },
      },
      { id: 'n1', role: 'note', text: 'Model changed to Meta-Llama-3.3-70B-Instruct.' },
      { id: 'u3', role: 'user', text: 'Now add a `cancel()` method and tests.' },
      {
        id: 'a3',
        role: 'assistant',
        model: 'Meta-Llama-3.3-70B-Instruct',
        text: '',
        error: {
          message: 'Rate limited: the service allows 20 requests per minute for this key.',
          reason: 'rateLimited',
          action: 'retry',
          retryAfterSeconds: 12,
        },
      },
    ],
  };

  const conversationsById = new Map([['c1', mainConversation]]);
  for (const summary of conversations.slice(1)) {
    conversationsById.set(summary.id, {
      id: summary.id,
      title: summary.title,
      model: selected,
      options: {},
      messages: [
        { id: `${summary.id}-u`, role: 'user', text: summary.title },
        {
          id: `${summary.id}-a`,
          role: 'assistant',
          model: selected,
          text: `Here is a short answer about *${summary.title.toLowerCase()}*.`,
          usage: { completionTokens: 12, promptTokens: 40, source: 'service' },
        },
      ],
    });
  }
  /** The Plan scenarios: an Act answer, then a Plan answer that read a file and ends with its plan. */
  const planConversation = {
    id: 'c9',
    title: 'Rename greeting',
    model: 'Meta-Llama-3.3-70B-Instruct',
    options: {},
    mode: 'plan',
    messages: [
      { id: 'pu1', role: 'user', text: 'What does src/greeting.ts export?' },
      { id: 'pa1', role: 'assistant', model: 'Meta-Llama-3.3-70B-Instruct', mode: 'act', text: 'It exports one function, `greeting(name)`.' },
      { id: 'pu2', role: 'user', text: 'Plan how to rename greeting to welcome everywhere.' },
      {
        id: 'pa2',
        role: 'assistant',
        model: 'Meta-Llama-3.3-70B-Instruct',
        mode: 'plan',
        text: '',
        toolCalls: [
          {
            index: 0,
            id: 'pc1',
            name: 'search_text',
            arguments: '{"pattern":"greeting"}',
            status: 'done',
            result: 'src/greeting.ts:1\nsrc/main.ts:3',
          },
        ],
      },
      {
        id: 'pa3',
        role: 'assistant',
        model: 'Meta-Llama-3.3-70B-Instruct',
        mode: 'plan',
        text: '`greeting` is defined in src/greeting.ts and called once in src/main.ts.\n\n## Plan\n1. In src/greeting.ts, rename `greeting` to `welcome`.\n2. In src/main.ts, update the import and the call.\n3. Run the tests.',
      },
    ],
  };
  const planLocked = 'Restricted Mode: this workspace is not trusted, so conversations stay in Plan and Cadenza only reads. Trust the workspace to act.';
  let mode = 'act';
  let active = mainConversation;
  let nextId = 100;
  /** What the host would list for `/`: a workspace's prompt files (untrusted in the prompts scenario) and the profile's. */
  const promptFiles = [
    { name: 'review', description: 'Review the selected code', source: '.github/prompts/review.prompt.md', untrusted: scenario === 'prompts' },
    { name: 'standup', description: 'Draft my stand-up note', source: 'standup.prompt.md in your profile', untrusted: false },
    { name: 'tests', description: 'Write tests for the active file', source: '.cadenza/prompts/tests.md', argumentHint: 'what to cover', untrusted: false },
  ];
  let streamTimer;
  let streamingId;

  function showModels(loading = false) {
    send({ type: 'state/models', models: loading ? [] : models, selected, loading });
  }

  function showConversation(conversation) {
    active = conversation;
    send({ type: 'conversation/show', conversation });
    send({ type: 'state/conversations', conversations, activeId: conversation.id });
  }

  /** Streams `text` as `count` deltas `intervalMs` apart, then done (unless __sandbox.holdStream). */
  function streamAnswer(id, text, { count = 40, intervalMs = 30, usage, jsonCheck, holdAt } = {}) {
    streamingId = id;
    const size = Math.ceil(text.length / count);
    let offset = 0;
    const step = () => {
      if (holdAt !== undefined && offset >= text.length * holdAt) return;
      if (offset >= text.length) {
        streamingId = undefined;
        send({ type: 'chat/done', messageId: id, stopped: false, usage, ...(jsonCheck ? { jsonCheck } : {}) });
        return;
      }
      send({ type: 'chat/delta', messageId: id, text: text.slice(offset, offset + size) });
      offset += size;
      streamTimer = setTimeout(step, intervalMs);
    };
    step();
  }

  async function answer(text) {
    const id = `a${nextId++}`;
    send({ type: 'message/add', message: { id, role: 'assistant', model: selected, text: '', streaming: true, ...(active.mode ? { mode } : {}) } });
    await wait(250);
    streamAnswer(id, text, {
      usage: { promptTokens: 1530, completionTokens: 280, timeToFirstTokenMs: 250, tokensPerSecond: 312, totalTimeMs: 1150, costUsd: 0.0013, source: 'mixed' },
    });
  }

  const scenarios = {
    async conversation() {
      showConversation(mainConversation);
      send({ type: 'context/meter', usedTokens: 18_240, limitTokens: 131_072, droppedMessages: 0 });
    },
    async streaming() {
      const conversation = { ...mainConversation, messages: mainConversation.messages.slice(0, 1) };
      showConversation(conversation);
      send({ type: 'context/meter', usedTokens: 104_800, limitTokens: 131_072, droppedMessages: 3 });
      send({ type: 'message/add', message: { id: 'live', role: 'assistant', model: selected, text: '', streaming: true } });
      await wait(200);
      streamAnswer('live', debounceAnswer, { count: 60, intervalMs: 10, holdAt: 0.5 });
    },
    async codeStreaming() {
      // An answer whose code block streams for about 12 s (short enough to stay in view): the open block is
      // rendered again with every few deltas.
      const conversation = { ...mainConversation, messages: mainConversation.messages.slice(0, 1) };
      showConversation(conversation);
      send({ type: 'message/add', message: { id: 'live', role: 'assistant', model: selected, text: '', streaming: true } });
      await wait(200);
      const lines = Array.from({ length: 40 }, (_, index) => `  total += values[${index}]; // line ${index}`);
      streamAnswer(
        'live',
        `Here is the sum:\n\n\`\`\`ts\nexport function sum(values: number[]): number {\n  let total = 0;\n${lines.join('\n')}\n  return total;\n}\n\`\`\`\n`,
        { count: 400, intervalMs: 30 },
      );
    },
    async errors() {
      showConversation({
        id: 'c3',
        title: 'Explain the retry policy',
        model: selected,
        options: {},
        messages: [
          { id: 'e1', role: 'user', text: 'Explain the retry policy.' },
          {
            id: 'e2',
            role: 'assistant',
            model: selected,
            text: '',
            error: { message: 'The API key was rejected (401). Set a valid key to continue.', reason: 'auth', action: 'setApiKey' },
          },
          { id: 'e3', role: 'user', text: 'Try with the other model.' },
          {
            id: 'e4',
            role: 'assistant',
            model: 'Llama-3.1-405B-Instruct',
            text: '',
            error: { message: 'Model Llama-3.1-405B-Instruct is not available (404).', reason: 'notFound', action: 'selectModel' },
          },
          { id: 'e5', role: 'user', text: 'Summarise everything we discussed.' },
        ],
      });
      send({ type: 'context/meter', usedTokens: 131_000, limitTokens: 131_072, droppedMessages: 0 });
      send({ type: 'message/add', message: { id: 'e6', role: 'assistant', model: selected, text: '', streaming: true } });
      send({
        type: 'chat/done',
        messageId: 'e6',
        stopped: false,
        error: { message: 'The conversation is too long for the model\u2019s context (131,072 tokens).', reason: 'tooLarge', action: 'trimAndRetry' },
      });
      send({ type: 'notice', level: 'warning', text: 'The image is 24.3 MB; the limit is 20 MB.' });
    },
    async retrying() {
      showConversation({
        id: 'c3',
        title: 'Explain the retry policy',
        model: selected,
        options: {},
        messages: [{ id: 'r1', role: 'user', text: 'Explain the retry policy in two sentences.' }],
      });
      send({ type: 'context/meter', usedTokens: 1_900, limitTokens: 131_072, droppedMessages: 0 });
      send({ type: 'message/add', message: { id: 'r2', role: 'assistant', model: selected, text: '', streaming: true } });
      send({ type: 'chat/delta', messageId: 'r2', text: 'Requests that fail with a time-out, a **429** or a server error are retried ' });
      await wait(100);
      streamingId = 'r2';
      send({ type: 'chat/retrying', messageId: 'r2', seconds: 9, attempt: 1, reason: 'rateLimited' });
    },
    async options() {
      const schema = JSON.stringify({
        title: 'Invoice',
        type: 'object',
        required: ['number', 'total'],
        properties: { number: { type: 'string' }, total: { type: 'number' } },
      });
      const json = '{"number":"INV-0042","total":"129.90","currency":"EUR"}';
      showConversation({
        id: 'c2',
        title: 'Extract invoice fields',
        model: selected,
        options: { temperature: 0.1, maxTokens: 1024, stop: ['###', 'END'], jsonMode: 'schema', schema, systemPrompt: 'You extract invoice fields as JSON.' },
        messages: [{ id: 'j1', role: 'user', text: 'Extract the invoice number and total from the attached text.' }],
      });
      send({ type: 'context/meter', usedTokens: 2_300, limitTokens: 131_072, droppedMessages: 0 });
      send({ type: 'message/add', message: { id: 'j2', role: 'assistant', model: selected, text: '', streaming: true } });
      streamAnswer('j2', json, {
        count: 6,
        intervalMs: 10,
        usage: {
          promptTokens: 310,
          completionTokens: 22,
          timeToFirstTokenMs: 180,
          tokensPerSecond: 190,
          totalTimeMs: 300,
          costUsd: 0.00023,
          source: 'service',
        },
        jsonCheck: {
          valid: false,
          pretty: JSON.stringify(JSON.parse(json), null, 2),
          problems: ['/total: must be number', '/currency: additional property not allowed'],
        },
      });
      send({ type: 'composer/image', image: sampleImage() });
    },
    async audio() {
      showConversation({
        id: 'c5',
        title: 'interview-clip.wav: Who speaks?',
        model: selected,
        options: {},
        messages: [
          { id: 'au1', role: 'user', text: 'Who speaks in this clip, and what do they agree on?', audioName: 'interview-clip.wav' },
          {
            id: 'au2',
            role: 'assistant',
            model: selected,
            text: 'Two people speak: an interviewer and a guest. They agree to **move the release to Friday** so the last audio fixes can land.',
            usage: {
              promptTokens: 812,
              completionTokens: 31,
              timeToFirstTokenMs: 420,
              tokensPerSecond: 64,
              totalTimeMs: 900,
              costUsd: 0.00042,
              source: 'service',
            },
          },
        ],
      });
      send({ type: 'context/meter', usedTokens: 870, limitTokens: 7_192, droppedMessages: 0 });
      send({ type: 'composer/audio', audio: sampleAudio });
    },
    async agent() {
      // An agent step with a card in each state a person meets: done, denied, failed, and two waiting
      // for approval (an edit with its diff and the allowance, a file that can run code with its caution).
      showConversation({
        id: 'c6',
        title: 'Friendlier greeting',
        model: selected,
        options: {},
        messages: [{ id: 'ag1', role: 'user', text: 'Make the greeting in src/greeting.ts friendlier and add a setup task.' }],
      });
      send({ type: 'context/meter', usedTokens: 3_100, limitTokens: 131_072, droppedMessages: 0 });
      send({ type: 'message/add', message: { id: 'ag2', role: 'assistant', model: selected, text: 'Let me read the file first.', streaming: true } });
      const call = (index, name, args, status, extra = {}) =>
        send({ type: 'tool/call', messageId: 'ag2', call: { index, id: `call-${index}`, name, arguments: JSON.stringify(args), status, ...extra } });
      call(0, 'read_file', { path: 'src/greeting.ts' }, 'done', { result: 'export function greeting(name: string): string {\n  return `Hello, ${name}!`;\n}' });
      // The core's English reason for asking first and its id (src/core/tools/sensitivePaths.ts secretFileCaution).
      call(1, 'read_file', { path: '.env' }, 'denied', {
        result: 'The user denied reading .env; it was not read.',
        change: {
          kind: 'read',
          path: '.env',
          reason: '.env is ignored by git and looks like a secret (keys, passwords, tokens): its text would be sent to the service.',
          reasonRule: { id: 'secretFile', values: { name: '.env' } },
        },
      });
      // The model is sent the function's English; the card says why it failed in the panel's language (failure).
      call(2, 'search_text', { query: '(', regex: true }, 'failed', {
        result: 'Error: query is not a regular expression this search supports (RE2 syntax: no backreferences or lookaround): missing closing )',
        failure: 'invalid',
      });
      call(3, 'edit_file', { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'Welcome' }, 'awaitingApproval', {
        change: {
          kind: 'edit',
          path: 'src/greeting.ts',
          diff: '@@ -2,3 +2,3 @@\n export function greeting(name: string): string {\n-  return `Hello, ${name}!`;\n+  return `Welcome, ${name}! Good to see you.`;\n }',
        },
      });
      call(4, 'create_file', { path: '.vscode/tasks.json' }, 'awaitingApproval', {
        change: {
          kind: 'create',
          path: '.vscode/tasks.json',
          content: '{ "version": "2.0.0", "tasks": [] }',
          // The core's English reason and its id (src/core/tools/sensitivePaths.ts): the card shows the id's text in the panel's language.
          caution: 'Workspace settings, tasks and launch configurations change how VS Code behaves, and tasks can run commands when the folder opens.',
          cautionRule: { id: 'vscode' },
        },
      });
    },
    async agentRepeat() {
      // A small model's answer (issue #35): an edit refused because its text occurs twice, the same edit sent
      // again and not run, then the answer asked for without tools with the note that says why; and the
      // replace_all edit that followed, whose card gives the count.
      const edit = { path: 'src/shop.py', old_text: 'total', new_text: 'sum' };
      showConversation({
        id: 'c9',
        title: 'Rename total',
        model: selected,
        options: {},
        messages: [
          { id: 'rp1', role: 'user', text: 'Rename total to sum.' },
          {
            id: 'rp2',
            role: 'assistant',
            model: selected,
            text: '',
            toolCalls: [
              {
                index: 0,
                id: 'r0',
                name: 'edit_file',
                arguments: JSON.stringify(edit),
                status: 'failed',
                result:
                  'Error: old_text occurs 2 times in src/shop.py (lines 1, 4). Set replace_all to true to replace every one, or include more surrounding lines so that it occurs once.',
              },
            ],
          },
          {
            id: 'rp3',
            role: 'assistant',
            model: selected,
            text: '',
            toolCalls: [
              {
                index: 0,
                id: 'r1',
                name: 'edit_file',
                arguments: JSON.stringify(edit),
                status: 'skipped',
                result:
                  'Not run: this exact call already failed at step 1 of this answer (Error: old_text occurs 2 times in src/shop.py (lines 1, 4). Set replace_all to true to replace every one, or include more surrounding lines so that it occurs once.). Do not send it again.',
              },
            ],
          },
          {
            id: 'rp4',
            role: 'assistant',
            model: selected,
            text: '`total` occurs twice in src/shop.py; I can rename both with replace_all.',
            agentStop: 'Cadenza asked for the answer without tools: the same call repeated.',
          },
          { id: 'rp5', role: 'user', text: 'Yes, rename both.' },
          {
            id: 'rp6',
            role: 'assistant',
            model: selected,
            text: '',
            toolCalls: [
              {
                index: 0,
                id: 'r2',
                name: 'edit_file',
                arguments: JSON.stringify({ ...edit, replace_all: true }),
                status: 'awaitingApproval',
                change: {
                  kind: 'edit',
                  path: 'src/shop.py',
                  diff: '@@ -1,4 +1,4 @@\n-def total(a, b):\n+def sum(a, b):\n     return a + b\n \n-answer = total(20, 22)\n+answer = sum(20, 22)',
                  replacements: 2,
                },
              },
            ],
          },
        ],
      });
    },
    async tools() {
      // A VS Code tool's card (its source, the image it returned) beside the tools menu (opened by the test), and
      // a tool not marked read-only waiting for approval: its origin, its arguments in full, the checkpoint note.
      showConversation({
        id: 'c7',
        title: 'Chart the sales',
        model: selected,
        options: {},
        messages: [{ id: 'vt1', role: 'user', text: "Chart this quarter's sales and file a note about it." }],
      });
      send({ type: 'context/meter', usedTokens: 3_400, limitTokens: 130_600, droppedMessages: 0 });
      send({ type: 'message/add', message: { id: 'vt2', role: 'assistant', model: selected, text: 'Here is the chart.', streaming: true } });
      const chart = sampleImage();
      send({
        type: 'tool/call',
        messageId: 'vt2',
        call: {
          index: 0,
          id: 'call-chart',
          name: 'renderChart',
          arguments: '{"values":[3,5,4,7]}',
          status: 'done',
          origin: 'acme.charts',
          result:
            'Chart of 4 values.\n[The tool returned an image (image/png, 1.2 KB). It is shown to the user; you cannot see it, since tool results reach you as text.]',
          images: [{ mimeType: 'image/png', dataUrl: chart.dataUrl, bytes: chart.bytes }],
        },
      });
      send({
        type: 'tool/call',
        messageId: 'vt2',
        call: {
          index: 1,
          id: 'call-note',
          name: 'mcp_notes_add_note',
          arguments: '{"title":"Q3 sales"}',
          status: 'denied',
          origin: 'MCP server notes',
          result: "mcp_notes_add_note was not run: the user declined it in VS Code's confirmation (or it was cancelled).",
        },
      });
      send({
        type: 'tool/call',
        messageId: 'vt2',
        call: {
          index: 2,
          id: 'call-post',
          name: 'post_message',
          arguments: '{"channel":"#sales","text":"Q3 chart attached","token":"xoxb-1234-sample"}',
          status: 'awaitingApproval',
          origin: 'MCP server chat',
          change: { kind: 'external', tool: 'post_message', origin: 'MCP server chat' },
        },
      });
    },
    async prompts() {
      // A conversation where a prompt file ran (from a workspace in Restricted Mode), and the `/` list to open.
      showConversation({
        id: 'c10',
        title: '/review naming',
        model: selected,
        options: {},
        messages: [
          {
            id: 'p1',
            role: 'user',
            text: 'Review this code from greeting.ts for naming:\n\n```ts\nexport const hi = (n: string) => `Hello, ${n}!`;\n```',
            prompt: { name: 'review', source: '.github/prompts/review.prompt.md', untrusted: true },
          },
          { id: 'p2', role: 'assistant', model: selected, text: '`n` could be `name`: the parameter is read once, so a longer name costs nothing.' },
        ],
      });
    },
    async toolsRestricted() {
      showConversation({ id: 'c8', title: 'New chat', model: selected, options: {}, messages: [] });
    },
    async nokey() {
      send({ type: 'state/connection', state: { baseUrl: 'https://api.sambanova.ai', hasKey: false } });
      showModels(true);
      showConversation({ id: 'c9', title: 'New chat', options: {}, messages: [] });
    },
    async authError() {
      send({ type: 'state/connection', state: { baseUrl: 'https://api.sambanova.ai', hasKey: false } });
      showModels();
      showConversation({
        id: 'c9',
        title: 'Hello',
        options: {},
        messages: [
          { id: 'k1', role: 'user', text: 'Hello!' },
          {
            id: 'k2',
            role: 'assistant',
            model: selected,
            text: '',
            error: { message: 'No API key is set for https://api.sambanova.ai.', reason: 'auth', action: 'setApiKey' },
          },
        ],
      });
    },
    async plan() {
      mode = 'plan';
      showConversation(planConversation);
    },
    async planRestricted() {
      mode = 'plan';
      showConversation({ ...planConversation, modeLocked: planLocked });
    },
    async bench() {
      // The question has a little of everything the answer will have, so fonts and caches are warm
      // (an open conversation usually has content already).
      showConversation({
        id: 'bench',
        title: 'Benchmark',
        model: selected,
        options: {},
        messages: [
          {
            id: 'bu',
            role: 'user',
            text: 'Write a long answer about this, with **tables** and `code`:\n\n```ts\nconst x: number = 1; // one\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n',
          },
        ],
      });
    },
  };

  async function onReady() {
    if (scenario !== 'nokey' && scenario !== 'authError') {
      send({ type: 'state/connection', state: { baseUrl: 'https://api.sambanova.ai', hasKey: true } });
      showModels();
    }
    await (scenarios[scenario] ?? scenarios.conversation)();
  }

  sandbox.onPost = async (message) => {
    switch (message.type) {
      case 'ready':
        await onReady();
        return;
      case 'chat/send': {
        if (sandbox.failNextSend) {
          sandbox.failNextSend = false;
          send({ type: 'notice', level: 'error', text: 'Could not reach https://api.sambanova.ai (network error).' });
          return;
        }
        const audioName = message.audio === sampleAudio.token ? { audioName: sampleAudio.name } : {};
        // A prompt file runs filled in (the host's job): the sandbox shows its chip and a stand-in text.
        const prompt = promptFiles.find((file) => file.name === message.prompt);
        const text = prompt ? `${prompt.description} (filled in)${message.text ? `\n\n${message.text}` : ''}` : message.text;
        send({
          type: 'message/add',
          message: {
            id: `u${nextId++}`,
            role: 'user',
            text,
            ...(message.image ? { imageDataUrl: message.image.dataUrl } : {}),
            ...audioName,
            ...(prompt ? { prompt: { name: prompt.name, source: prompt.source, untrusted: prompt.untrusted } } : {}),
          },
        });
        if (!sandbox.holdStream) await answer(debounceAnswer);
        return;
      }
      case 'chat/stop':
        clearTimeout(streamTimer);
        if (streamingId)
          send({ type: 'chat/done', messageId: streamingId, stopped: true, usage: { completionTokens: 40, totalTimeMs: 800, source: 'client' } });
        streamingId = undefined;
        return;
      case 'chat/regenerate':
      case 'chat/retry':
        await answer(debounceAnswer);
        return;
      case 'conversation/new': {
        const fresh = { id: `c${nextId++}`, title: 'New chat', options: {}, messages: [] };
        conversationsById.set(fresh.id, fresh);
        conversations.unshift({ id: fresh.id, title: fresh.title, updatedAt: Date.now() });
        showConversation(fresh);
        return;
      }
      case 'conversation/switch':
        showConversation(conversationsById.get(message.id) ?? active);
        return;
      case 'model/select':
        selected = message.modelId;
        showModels();
        return;
      case 'model/refresh':
        send({ type: 'state/models', models, selected, loading: true });
        await wait(600);
        showModels();
        return;
      case 'image/pick':
        send({ type: 'composer/image', image: sampleImage() });
        return;
      case 'image/check':
        send({ type: 'composer/image', image: message.image });
        return;
      case 'audio/pick':
        send({ type: 'composer/audio', audio: sampleAudio });
        return;
      case 'audio/transcribeIntoPrompt':
        send({ type: 'composer/insertText', text: 'Summarise the stand-up: what was decided about the release?' });
        return;
      case 'tools/list':
      case 'tools/enable':
        if (message.type === 'tools/enable')
          vscodeTools = vscodeTools.map((tool) => (tool.name === message.name ? { ...tool, enabled: message.enabled } : tool));
        send({ type: 'state/vscodeTools', tools: vscodeTools, restricted: scenario === 'toolsRestricted', agentEnabled: true });
        return;
      case 'prompts/query':
        send({ type: 'prompts/list', requestId: message.requestId, prompts: promptFiles });
        return;
      case 'mention/query':
        send({
          type: 'mention/candidates',
          requestId: message.requestId,
          query: message.query,
          candidates: [
            { kind: 'file', id: 'src/greeting.ts', label: 'src/greeting.ts' },
            { kind: 'symbol', id: 'greeting', label: 'greeting', detail: 'src/greeting.ts' },
          ].filter((candidate) => candidate.label.includes(message.query)),
        });
        return;
      case 'agent/setMode':
        mode = active.modeLocked ? 'plan' : message.mode;
        active = { ...active, mode };
        send({ type: 'agent/mode', conversationId: active.id, mode, ...(active.modeLocked ? { locked: active.modeLocked } : {}) });
        return;
      case 'agent/actOnPlan':
        mode = 'act';
        active = { ...active, mode };
        send({ type: 'agent/mode', conversationId: active.id, mode });
        send({ type: 'message/add', message: { id: `u${nextId++}`, role: 'user', text: message.plan } });
        if (!sandbox.holdStream) await answer('Done: I renamed `greeting` to `welcome` in both files.');
        return;
      case 'schema/pick':
        send({ type: 'composer/schema', name: 'invoice.schema.json', schema: '{"type":"object"}' });
        return;
      default:
        return;
    }
  };

  /**
   * For bench/panel/render.mjs: streams `text` as `count` deltas at `perSecond` deltas a second into a new
   * answer, and resolves when `chat/done` has been sent and the panel has painted it.
   */
  sandbox.streamForBench = (text, count, perSecond) =>
    new Promise((resolve) => {
      const id = `bench-${nextId++}`;
      send({ type: 'message/add', message: { id, role: 'assistant', model: selected, text: '', streaming: true } });
      const size = Math.ceil(text.length / count);
      const chunks = [];
      for (let offset = 0; offset < text.length; offset += size) chunks.push(text.slice(offset, offset + size));
      const started = performance.now();
      let sent = 0;
      const pump = () => {
        // Like the host's messages, deltas arrive in separate tasks: at most 100 per task even in a burst.
        const due = Math.min(chunks.length, sent + 100, Math.floor(((performance.now() - started) / 1000) * perSecond) + 1);
        for (; sent < due; sent += 1) send({ type: 'chat/delta', messageId: id, text: chunks[sent] });
        if (sent < chunks.length) {
          setTimeout(pump, perSecond > 10_000 ? 0 : 4);
          return;
        }
        send({ type: 'chat/done', messageId: id, stopped: false, usage: { completionTokens: 20_000, source: 'client' } });
        setTimeout(
          () => window.requestAnimationFrame(() => window.requestAnimationFrame(() => resolve({ deltas: chunks.length, ms: performance.now() - started }))),
          0,
        );
      };
      pump();
    });
})();
