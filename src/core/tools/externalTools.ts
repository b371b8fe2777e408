// The language model tools other extensions and MCP servers register in VS Code (`vscode.lm.tools`), as the
// agent offers them: which ones may be offered at all, their names on the wire (the service's function-name
// rules, no collision with the agent's own functions), their schemas as the spec's parameters object, what
// they add to every request, and their results (text parts, data, images) reduced to what a tool message
// carries. Pure: the host (host/tools/vscodeTools.ts) lists and invokes them; which
// ones are asked before they run is core/tools/externalApproval.ts.
import type { ToolDefinition } from '../api/types';
import { estimateTokens } from '../chat/contextBudget';
import { isRecord } from '../../shared/jsonObject';

/** A tool as `vscode.lm.tools` describes it (LanguageModelToolInformation), without any `vscode` type. */
export interface ExternalToolInfo {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object | undefined;
  readonly tags: readonly string[];
  /** `publisher.extension/tool` for an extension's tool, `server/tool` for an MCP server's, `set/tool` for VS Code's own. */
  readonly fullReferenceName?: string | undefined;
}

/** Where a tool comes from, as far as the API tells. */
export type ExternalToolKind = 'extension' | 'mcp' | 'vscode';

/** A tool the menu offers. */
export interface ExternalTool {
  /** The name VS Code knows it by (`invokeTool` takes it). */
  readonly name: string;
  /** The name the model calls it by: the service's rules, unique among the request's functions. */
  readonly wireName: string;
  readonly kind: ExternalToolKind;
  /** The extension id, the MCP server, or "VS Code". */
  readonly source: string;
  /** Marked read-only (a `read-only` tag, or VS Code's own `read` tool set): the only ones Restricted Mode offers. */
  readonly readOnly: boolean;
  readonly definition: ToolDefinition;
  /** Tokens its schema adds to every request that offers it. */
  readonly tokens: number;
}

/**
 * VS Code's own tools that only work inside its chat view (they ask its chat UI, drive its sessions, or edit
 * through its chat editing session): invoked from another extension they fail, so they are never offered.
 */
const chatOnlyTools: ReadonlySet<string> = new Set([
  'runSubagent',
  'manage_todo_list',
  'vscode_askQuestions',
  'vscode_reviewPlan',
  'task_complete',
  'inline_chat_exit',
  'setup_tools_createNewWorkspace',
  'vscode_get_confirmation',
  'vscode_get_confirmation_with_options',
  'vscode_get_terminal_confirmation',
  'vscode_get_modified_files_confirmation',
]);

/** The service takes at most this many functions in one request (docs/service.md#tool-calls). */
export const maxFunctions = 128;

/** Function names the service accepts: the OpenAI rule the service follows, `^[A-Za-z0-9_-]{1,64}$`. */
const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether `name` may be sent as a function name. */
export function isValidFunctionName(name: string): boolean {
  return namePattern.test(name);
}

/** A tag that says the tool only reads: `read-only`, `readonly`, `read_only`, `readOnly` (any case). */
function readOnlyTag(tag: string): boolean {
  return /^read[-_ ]?only$/i.test(tag);
}

/** Where a tool comes from, from its tags and full reference name. */
export function toolOrigin(info: ExternalToolInfo): { readonly kind: ExternalToolKind; readonly source: string } {
  const prefix = info.fullReferenceName?.includes('/') ? info.fullReferenceName.slice(0, info.fullReferenceName.indexOf('/')) : undefined;
  if (info.tags.includes('mcp')) return { kind: 'mcp', source: prefix ? `MCP server ${prefix}` : 'an MCP server' };
  // An extension's tools are named `publisher.name/tool`; VS Code's own tool sets have no dot.
  if (prefix?.includes('.')) return { kind: 'extension', source: prefix };
  return { kind: 'vscode', source: 'VS Code' };
}

/**
 * Whether a tool may be offered at all: not one of Cadenza's own (`ownPrefix`; they would loop back into
 * Cadenza), not one of VS Code's tools that only work in its own chat, and (VS Code's own tools) one that
 * VS Code lets users reference (a full reference name), which its internal helpers lack.
 */
export function isOfferable(info: ExternalToolInfo, ownPrefix: string): boolean {
  if (info.name.startsWith(ownPrefix) || chatOnlyTools.has(info.name) || info.name.endsWith('_internal')) return false;
  if (toolOrigin(info).kind === 'vscode' && !info.fullReferenceName) return false;
  return true;
}

/**
 * Marked read-only: a read-only tag its extension declares, or one of VS Code's own tools in its `read` tool
 * set (an extension cannot add to that set without a proposed API). Anything else is not: unknown asks. VS
 * Code (1.104 to 1.139) gives extensions no read-only flag, and an MCP server's tool reaches them tagged only
 * `mcp`: its readOnlyHint is not passed on, so every MCP tool asks.
 */
export function isReadOnly(info: ExternalToolInfo): boolean {
  if (info.tags.some(readOnlyTag)) return true;
  return toolOrigin(info).kind === 'vscode' && (info.fullReferenceName?.startsWith('read/') ?? false);
}

/** `name` made a valid function name: other characters become `_`, cut to 64. */
function sanitised(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'tool' : cleaned;
}

/**
 * The wire name of each tool, in the order given: its own name when valid and free, else the sanitised name,
 * and on a collision with `reserved` (the agent's functions) or an earlier tool, `vscode_` before it and then
 * a number after it, always within 64 characters. Deterministic for the same list, so a conversation's calls
 * keep their names from request to request.
 */
export function wireNames(names: readonly string[], reserved: ReadonlySet<string>): string[] {
  const taken = new Set(reserved);
  return names.map((name) => {
    const base = sanitised(name);
    const candidates = [base, `vscode_${base}`.slice(0, 64)];
    let chosen = candidates.find((candidate) => !taken.has(candidate));
    for (let n = 2; chosen === undefined; n += 1) {
      const suffix = `_${n}`;
      const candidate = `${candidates[1]?.slice(0, 64 - suffix.length)}${suffix}`;
      if (!taken.has(candidate)) chosen = candidate;
    }
    taken.add(chosen);
    return chosen;
  });
}

/**
 * A tool's input schema as the spec's `parameters` (always `type: "object"` with `properties`): a missing or
 * empty schema, or one of another type (VS Code passes tools an object), becomes an object without
 * properties; `$schema` is dropped (it only costs tokens).
 */
export function toolParameters(schema: object | undefined): Readonly<Record<string, unknown>> {
  if (!isRecord(schema) || (schema['type'] !== 'object' && schema['type'] !== undefined)) return { type: 'object', properties: {} };
  const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
  return { ...rest, type: 'object', properties: isRecord(rest['properties']) ? rest['properties'] : {} };
}

/** The tools offered from `infos` (Cadenza's own and chat-only ones left out), with wire names that avoid `reserved`. */
export function externalTools(infos: readonly ExternalToolInfo[], reserved: ReadonlySet<string>, ownPrefix: string): ExternalTool[] {
  const offered = infos.filter((info) => isOfferable(info, ownPrefix)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = wireNames(
    offered.map((info) => info.name),
    reserved,
  );
  return offered.map((info, index) => {
    const wireName = names[index] ?? info.name;
    const definition: ToolDefinition = { name: wireName, description: info.description, parameters: toolParameters(info.inputSchema) };
    return { name: info.name, wireName, ...toolOrigin(info), readOnly: isReadOnly(info), definition, tokens: estimateTokens(JSON.stringify(definition)) };
  });
}

/** Why a tool the user enabled is not in this request. */
export interface LeftOut {
  readonly name: string;
  readonly reason: 'restricted' | 'tooMany';
}

/**
 * The tools of one request: those the user enabled, only read-only ones when the workspace is restricted, at
 * most what the service takes besides the agent's `ownCount` functions. Says which enabled ones were left out.
 */
export function selectTools(
  tools: readonly ExternalTool[],
  enabled: ReadonlySet<string>,
  options: { readonly trusted: boolean; readonly ownCount: number },
): { readonly tools: ExternalTool[]; readonly leftOut: LeftOut[] } {
  const chosen: ExternalTool[] = [];
  const leftOut: LeftOut[] = [];
  const room = Math.max(0, maxFunctions - options.ownCount);
  for (const tool of tools) {
    if (!enabled.has(tool.name)) continue;
    if (!options.trusted && !tool.readOnly) leftOut.push({ name: tool.name, reason: 'restricted' });
    else if (chosen.length >= room) leftOut.push({ name: tool.name, reason: 'tooMany' });
    else chosen.push(tool);
  }
  return { tools: chosen, leftOut };
}

/** One part of a tool's result, reduced by the host (text, prompt-tsx already as text, data as bytes). */
export type ResultPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'data'; readonly mimeType: string; readonly data: Uint8Array };

/** An image a tool returned, for its card. */
export interface ResultImage {
  readonly mimeType: string;
  readonly dataUrl: string;
  readonly bytes: number;
}

/** A tool's result: the text the model is sent, and the images the card shows. */
export interface ToolOutput {
  readonly text: string;
  readonly images: readonly ResultImage[];
}

/** Image types the panel shows (and the service would take). */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
/** A larger image is described, not kept with the conversation. */
const maxCardImageBytes = 1_000_000;

function isTextType(mimeType: string): boolean {
  const type = mimeType.toLowerCase();
  return type.startsWith('text/') || type.includes('json') || type.includes('xml');
}

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A result as the model and the card get it. Text parts and text data (text/*, JSON, XML) are the model's
 * text. An image is shown in the card and described to the model in one line: a tool message is text only,
 * and the one image a request may carry is the user's (docs/service.md#images). Other binary data is described.
 * An empty result says so, so the model never reads an empty tool message.
 */
export function toolOutput(parts: readonly ResultPart[]): ToolOutput {
  const texts: string[] = [];
  const images: ResultImage[] = [];
  for (const part of parts) {
    if (part.kind === 'text') {
      if (part.text !== '') texts.push(part.text);
      continue;
    }
    const type = part.mimeType.toLowerCase();
    if (isTextType(type)) {
      texts.push(new TextDecoder().decode(part.data));
    } else if (imageTypes.has(type)) {
      const bytes = part.data.byteLength;
      if (bytes <= maxCardImageBytes) {
        images.push({ mimeType: type, bytes, dataUrl: `data:${type};base64,${Buffer.from(part.data.buffer, part.data.byteOffset, bytes).toString('base64')}` });
        texts.push(
          `[The tool returned an image (${type}, ${sizeText(bytes)}). It is shown to the user; you cannot see it, since tool results reach you as text.]`,
        );
      } else {
        texts.push(`[The tool returned an image (${type}, ${sizeText(bytes)}), too large to show or pass on.]`);
      }
    } else {
      texts.push(`[The tool returned ${type} data (${sizeText(part.data.byteLength)}), which cannot be passed on as text.]`);
    }
  }
  return { text: texts.length > 0 ? texts.join('\n') : '(The tool returned no content.)', images };
}
