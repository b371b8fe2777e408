// The language model tools other extensions and MCP servers register in VS Code, for the agent: which ones
// exist (`vscode.lm.tools`, Cadenza's own left out so nothing loops back), which ones the user enabled for
// this workspace (the panel's tools menu, in workspace state; none by default: they spend tokens on every
// request and may act), and each as a function of the tool loop that runs it through `vscode.lm.invokeTool`.
// A tool not marked read-only waits on its card for the user first (core/tools/externalApproval.ts says why
// and which count as read-only); VS Code may then show the tool's own confirmation too (no chat request, so no
// invocation token: its dialog), which Cadenza never pre-approves. The rules are pure in core/tools/.
import * as vscode from 'vscode';
import { readToolDefinitions, changeToolDefinitions } from '../../core/tools/definitions';
import { externalApproval } from '../../core/tools/externalApproval';
import { externalTools, selectTools, toolOutput, type ExternalTool, type LeftOut, type ResultPart, type ToolOutput } from '../../core/tools/externalTools';
import { promptTsxText } from '../../core/chat/lmMessages';
import { ToolError, type ReadTool, type ToolArgs, type ToolContext } from '../../core/tools/toolTypes';
import type { Logger } from '../../core/logger';
import type { VscodeToolView } from '../../shared/views';

/** Where the enabled tools' names are kept (workspace state: a workspace's MCP servers are its own). */
export const enabledToolsKey = 'cadenza.vscodeTools.enabled';
/** Cadenza's own lm tools (host/lm/tools.ts) start with this; offering them would loop back into Cadenza. */
const ownPrefix = 'cadenza_';
/** The agent's own function names: a VS Code tool never takes one of them on the wire. */
const ownNames: ReadonlySet<string> = new Set([...readToolDefinitions, ...changeToolDefinitions].map((definition) => definition.name));

/** The tools one request offers, and the enabled ones left out (Restricted Mode, the service's limit). */
export interface VscodeToolSelection {
  readonly tools: readonly ReadTool[];
  readonly leftOut: readonly LeftOut[];
}

/** A result's parts reduced for core: text, prompt-tsx as its text, data parts (recognised by shape: mime type and bytes). */
function resultParts(content: readonly unknown[]): ResultPart[] {
  const parts: ResultPart[] = [];
  for (const part of content) {
    if (part instanceof vscode.LanguageModelTextPart) parts.push({ kind: 'text', text: part.value });
    else if (part instanceof vscode.LanguageModelPromptTsxPart) parts.push({ kind: 'text', text: promptTsxText(part.value) });
    else if (typeof part === 'object' && part !== null) {
      const record = part as { mimeType?: unknown; data?: unknown };
      if (typeof record.mimeType === 'string' && record.data instanceof Uint8Array) parts.push({ kind: 'data', mimeType: record.mimeType, data: record.data });
    }
  }
  return parts;
}

/** A cancellation that did not come from our own signal: the user declined VS Code's confirmation (or the tool gave up). */
function isCancellation(error: unknown): boolean {
  return error instanceof vscode.CancellationError || (error instanceof Error && (error.name === 'Canceled' || error.message === 'Canceled'));
}

/** The VS Code tools of this window. */
export class VscodeTools {
  constructor(
    private readonly state: vscode.Memento,
    private readonly log: Logger,
  ) {}

  /** The tools that may be offered now, sorted by name, with their wire names. */
  available(): ExternalTool[] {
    return externalTools(
      vscode.lm.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        tags: tool.tags,
        fullReferenceName: Reflect.get(tool, 'fullReferenceName') as string | undefined,
      })),
      ownNames,
      ownPrefix,
    );
  }

  /** The names the user enabled for this workspace. */
  enabled(): ReadonlySet<string> {
    const stored = this.state.get<unknown>(enabledToolsKey);
    return new Set(Array.isArray(stored) ? stored.filter((name): name is string => typeof name === 'string') : []);
  }

  /** Enables or disables one tool for this workspace. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const names = new Set(this.enabled());
    if (enabled) names.add(name);
    else names.delete(name);
    await this.state.update(enabledToolsKey, [...names].sort());
  }

  /** The menu's rows: every offerable tool, whether enabled, and whether Restricted Mode holds it back. */
  menu(trusted: boolean): VscodeToolView[] {
    const enabled = this.enabled();
    return this.available().map((tool) => ({
      name: tool.name,
      wireName: tool.wireName,
      description: tool.definition.description ?? '',
      source: tool.source,
      kind: tool.kind,
      readOnly: tool.readOnly,
      tokens: tool.tokens,
      enabled: enabled.has(tool.name),
      blocked: !trusted && !tool.readOnly,
    }));
  }

  /** The enabled tools as functions of one agent request (only read-only ones when `trusted` is false). */
  select(trusted: boolean, ownCount: number): VscodeToolSelection {
    const { tools, leftOut } = selectTools(this.available(), this.enabled(), { trusted, ownCount });
    return { tools: tools.map((tool) => this.asFunction(tool)), leftOut };
  }

  private asFunction(tool: ExternalTool): ReadTool {
    return {
      definition: tool.definition,
      effect: 'read',
      readOnly: tool.readOnly,
      origin: tool.source === 'VS Code' ? 'VS Code' : `${tool.source}${tool.wireName !== tool.name ? ` (${tool.name})` : ''}`,
      run: async (args, context) => (await this.invoke(tool, args, context)).text,
      runWithImages: (args, context) => this.invoke(tool, args, context),
      confirm: (args) => Promise.resolve(externalApproval(tool, args)),
    };
  }

  /**
   * Runs the tool through VS Code (which asks its confirmation, if the tool has one). A throw is the tool's
   * failure (the model reads the message); a cancellation not caused by Stop is the user declining.
   */
  private async invoke(tool: ExternalTool, args: ToolArgs, context: ToolContext): Promise<ToolOutput> {
    const source = new vscode.CancellationTokenSource();
    const abort = (): void => source.cancel();
    context.signal.addEventListener('abort', abort, { once: true });
    try {
      this.log.info(`Invoking VS Code tool ${tool.name} (${tool.source}).`);
      const result = await vscode.lm.invokeTool(tool.name, { input: args, toolInvocationToken: undefined }, source.token);
      return toolOutput(resultParts(result.content));
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (isCancellation(error))
        throw new ToolError(
          'declined',
          `${tool.name} was not run: the user declined it in VS Code's confirmation (or it was cancelled). Do not call it again unless the user asks.`,
        );
      this.log.warn(`VS Code tool ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      context.signal.removeEventListener('abort', abort);
      source.dispose();
    }
  }
}
