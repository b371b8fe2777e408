// When a VS Code tool of another extension or an MCP server runs only after the user said yes. Such a tool
// acts outside the workspace port (it may deploy, post a message, write anywhere), so a model steered by text
// it read could send a secret with it, and no checkpoint can undo what it did. The rule, safe by default:
// a tool runs at once only when it is marked read-only (externalTools.isReadOnly: a read-only tag its
// extension declares, or VS Code's own `read` tool set); any other, an MCP server's tool included (VS Code
// passes no readOnlyHint to extensions, only the `mcp` tag), is asked on its card every time, never under
// "allow edits for this conversation".
import type { ExternalTool } from './externalTools';
import type { ChangePreview, ToolArgs } from './toolTypes';

/** What the user is asked before `tool` runs with `args`, or undefined when it is marked read-only and runs at once. */
export function externalApproval(tool: Pick<ExternalTool, 'name' | 'source' | 'readOnly'>, args: ToolArgs): ChangePreview | undefined {
  if (tool.readOnly) return undefined;
  return { kind: 'external', tool: tool.name, origin: tool.source, input: JSON.stringify(args, null, 2) };
}
