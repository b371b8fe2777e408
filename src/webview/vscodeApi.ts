/**
 * The webview's side of VS Code: typed `postMessage` and the state kept with `getState`/`setState`
 * (the draft, the edited plan, the scroll position, which panels are open, unsent option edits). The panel does not
 * use `retainContextWhenHidden`: everything else comes back from the host after `ready`.
 */
import type { FromWebview } from '../shared/protocol';
import type { ChatOptions } from '../shared/views';
import { isChatOptions } from '../shared/protocol/chat';
import { isRecord } from '../shared/jsonObject';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** Option edits not yet sent with a request, for one conversation. */
export interface PendingOptions {
  readonly conversationId: string;
  readonly options: ChatOptions;
  readonly schemaName?: string;
}

/**
 * The user's edits of the plan under the last Plan answer (planBlock.ts): the answer's message, the plan the box
 * was filled with (a changed answer does not get an old edit) and the box's text.
 */
export interface PlanDraft {
  readonly conversationId: string;
  readonly messageId: string;
  readonly plan: string;
  readonly text: string;
}

/** What survives the panel being hidden and shown again. */
export interface PersistedState {
  readonly draft: string;
  readonly planDraft?: PlanDraft;
  readonly scrollTop: number;
  readonly atBottom: boolean;
  readonly conversationId?: string;
  readonly optionsOpen: boolean;
  readonly options?: PendingOptions;
}

const empty: PersistedState = { draft: '', scrollTop: 0, atBottom: true, optionsOpen: false };

function readPending(value: unknown): PendingOptions | undefined {
  if (!isRecord(value) || typeof value['conversationId'] !== 'string' || !isChatOptions(value['options'])) return undefined;
  const pending: PendingOptions = { conversationId: value['conversationId'], options: value['options'] };
  return typeof value['schemaName'] === 'string' ? { ...pending, schemaName: value['schemaName'] } : pending;
}

function readPlanDraft(value: unknown): PlanDraft | undefined {
  if (!isRecord(value)) return undefined;
  const { conversationId, messageId, plan, text } = value;
  if (typeof conversationId !== 'string' || typeof messageId !== 'string' || typeof plan !== 'string' || typeof text !== 'string') return undefined;
  return { conversationId, messageId, plan, text };
}

/** Reads saved state defensively: it may come from an older version of the panel. */
function readState(value: unknown): PersistedState {
  if (!isRecord(value)) return empty;
  const state: PersistedState = {
    draft: typeof value['draft'] === 'string' ? value['draft'] : '',
    scrollTop: typeof value['scrollTop'] === 'number' ? value['scrollTop'] : 0,
    atBottom: value['atBottom'] !== false,
    optionsOpen: value['optionsOpen'] === true,
  };
  const conversationId = typeof value['conversationId'] === 'string' ? value['conversationId'] : undefined;
  const options = readPending(value['options']);
  const planDraft = readPlanDraft(value['planDraft']);
  return {
    ...state,
    ...(conversationId !== undefined ? { conversationId } : {}),
    ...(options !== undefined ? { options } : {}),
    ...(planDraft !== undefined ? { planDraft } : {}),
  };
}

/** The one VS Code API object of this webview, with typed messages and merged state updates. */
export class Host {
  private readonly api: VsCodeApi = acquireVsCodeApi();
  private current: PersistedState = readState(this.api.getState());

  /** The state saved by the previous load of the panel (or defaults). */
  get state(): PersistedState {
    return this.current;
  }

  /** Sends a message to the extension host. */
  post(message: FromWebview): void {
    this.api.postMessage(message);
  }

  /** Merges `changes` into the saved state; `undefined` values remove a key. */
  save(changes: { readonly [K in keyof PersistedState]?: PersistedState[K] | undefined }): void {
    const next: Record<string, unknown> = { ...this.current };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    this.current = readState(next);
    this.api.setState(this.current);
  }
}
