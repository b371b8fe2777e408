/** The agent in the panel: its tool calls as cards, the answers to its proposed changes, the edit allowance, the tools menu, and the conversation's mode (Plan or Act). */
import * as v from 'valibot';
import { agentModes, type AgentMode, type ToolCallView, type VscodeToolView } from '../views';
import { chatOptions } from './chat';
import { message, request, shortText, text } from './schema';

/** The answers a change card offers. */
export type ApprovalDecision = 'approve' | 'deny' | 'allowConversation' | 'allowTool';

const approvalDecisions = ['approve', 'deny', 'allowConversation', 'allowTool'] as const satisfies readonly ApprovalDecision[];

/** Host → webview. */
export type AgentToWebview =
  /**
   * A tool call of the agent step `messageId` appeared or changed (forming, waiting for approval, running,
   * done...): the panel adds or replaces the card at `call.index`. A call `awaitingApproval` waits for a
   * `tool/approve` with its id.
   */
  | { readonly type: 'tool/call'; readonly messageId: string; readonly call: ToolCallView }
  /**
   * "Allow edits for this conversation" began (for `conversationId`) or ended (undefined): while it holds
   * the panel says so, with a way to end it. Files that can run code are asked for regardless.
   */
  | { readonly type: 'agent/allowance'; readonly conversationId: string | undefined }
  /**
   * The tools other extensions and MCP servers register in VS Code, for the tools menu (answering `tools/list`
   * and `tools/enable`): which the agent may use in this workspace. `restricted`: Restricted Mode, where only
   * tools marked read-only are offered.
   */
  | { readonly type: 'state/vscodeTools'; readonly tools: readonly VscodeToolView[]; readonly restricted: boolean; readonly agentEnabled: boolean }
  /**
   * The mode of conversation `conversationId` changed (answering `agent/setMode`, or Act on this plan): the
   * composer's switch shows it. `locked`: why it cannot be switched (Restricted Mode, always Plan).
   */
  | { readonly type: 'agent/mode'; readonly conversationId: string; readonly mode: AgentMode; readonly locked?: string };

/** Webview → host. */
export const agentFromWebview = [
  /**
   * The user's answer to a change the agent proposes (the card of call `callId`): run it once, deny it,
   * run it and allow further edits in this conversation without asking (never offered for commands), or
   * (another extension's or an MCP server's tool) run it and allow that tool in this conversation.
   */
  message('tool/approve', { callId: text, decision: v.picklist(approvalDecisions) }),
  /** Open the proposed edit of call `callId` in the editor's diff view. */
  message('tool/showDiff', { callId: text }),
  /** End "allow edits for this conversation": later edits are asked again. */
  message('agent/endAllowance', {}),
  /** The tools menu opened: the host answers with the tools registered in VS Code now. */
  request('tools/list', {}, 'state/vscodeTools'),
  /** The user ticked or unticked a VS Code tool in the tools menu (remembered for the workspace). */
  request('tools/enable', { name: shortText(300), enabled: v.boolean() }, 'state/vscodeTools'),
  /** The composer's switch: the open conversation's answers run in `mode` from now on (kept with it). Refused in Restricted Mode. */
  request('agent/setMode', { mode: v.picklist(agentModes) }, 'agent/mode'),
  /**
   * Act on this plan: the open conversation switches to Act and `plan` (the last Plan answer's plan, as the
   * user edited it) is sent as the next message, with the composer's options.
   */
  message('agent/actOnPlan', { plan: text, options: chatOptions }),
] as const;
