// The agent's functions as the model sees them: the spec's tool shape (name, description, parameters
// with type/properties/required). Kept lean on purpose: every word here is sent with every request of an
// agent turn (bench/agent/agent.ts prints what they cost; peers spend 4,000 to 15,000 tokens on this).
import { planInstruction, type AgentMode } from './agentMode';
import type { ToolDefinition } from '../api/types';

type Property = { readonly type: 'string' | 'integer' | 'boolean'; readonly description: string };

function fn(name: string, description: string, properties: Readonly<Record<string, Property>>, required: readonly string[]): ToolDefinition {
  return { name, description, parameters: { type: 'object', properties, required } };
}

const path: Property = { type: 'string', description: 'Workspace-relative path' };

/** The functions that only read; they run without asking, in Restricted Mode too. */
export const readToolDefinitions: readonly ToolDefinition[] = [
  fn(
    'read_file',
    'Read a text file, optionally a line range.',
    {
      path,
      start_line: { type: 'integer', description: '1-based, optional' },
      end_line: { type: 'integer', description: 'Inclusive, optional' },
    },
    ['path'],
  ),
  fn('list_directory', 'List a directory.', { path: { type: 'string', description: 'Workspace-relative; "." is the root' } }, ['path']),
  fn('find_files', 'Find files by glob.', { glob: { type: 'string', description: 'e.g. src/**/*.ts' } }, ['glob']),
  fn(
    'search_text',
    'Search file contents; returns path:line: text.',
    {
      query: { type: 'string', description: 'Text, or an RE2 regex if regex is true' },
      regex: { type: 'boolean', description: 'Optional' },
      glob: { type: 'string', description: 'Optional file filter' },
    },
    ['query'],
  ),
  fn('semantic_search', 'Find code by meaning in the workspace index.', { query: { type: 'string', description: 'What to look for' } }, ['query']),
  fn('get_diagnostics', 'Errors and warnings of a file, or of the workspace.', { path: { type: 'string', description: 'Optional; omit for all' } }, []),
  fn('get_symbols', 'Outline of a file: symbols with line ranges.', { path }, ['path']),
  fn('get_selection', 'The active editor, its selection, and the open editors.', {}, []),
];

/** The functions that change things; each is shown to the user and runs only when approved. */
export const changeToolDefinitions: readonly ToolDefinition[] = [
  fn(
    'edit_file',
    'Replace text in a file; read it first. old_text must occur once, unless replace_all is true.',
    {
      path,
      old_text: { type: 'string', description: 'Exact text to replace' },
      new_text: { type: 'string', description: 'Replacement' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence (optional)' },
    },
    ['path', 'old_text', 'new_text'],
  ),
  fn(
    'create_file',
    'Create a new file (never overwrites).',
    { path: { type: 'string', description: 'Workspace-relative file path, e.g. src/new.ts' }, content: { type: 'string', description: 'File content' } },
    ['path', 'content'],
  ),
  fn(
    'run_in_terminal',
    'Run a shell command in the workspace; returns its output.',
    {
      command: { type: 'string', description: 'Shell command' },
      cwd: { type: 'string', description: 'Optional workspace-relative folder' },
    },
    ['command'],
  ),
];

/**
 * The system prompt of an agent turn: short, because it too goes with every request; in Plan mode the
 * instruction to only read and end with a numbered plan; then the workspace's files when given (workspaceOverview.ts).
 */
export function agentSystemPrompt(trusted: boolean, overview = '', mode: AgentMode = 'act'): string {
  const base = mode === 'plan' ? `${instructions(trusted)} ${planInstruction}` : instructions(trusted);
  return overview === '' ? base : `${base}\n\n${overview}`;
}

function instructions(trusted: boolean): string {
  return trusted
    ? "You are Cadenza, a coding assistant in VS Code. Use the functions to read and search the user's workspace instead of guessing. To change files, call edit_file or create_file; the user approves each change. Paths are workspace-relative."
    : "You are Cadenza, a coding assistant in VS Code. Use the functions to read and search the user's workspace instead of guessing. The workspace is in Restricted Mode: you can read it but not change files or run commands; describe changes instead. Paths are workspace-relative.";
}
