/**
 * The words of a tool-call card, kept free of the DOM so they are unit-tested in plain Node: the status
 * labels, the one-line summary of a call, what a change is called, and how a diff line is coloured.
 */
import { parseJsonObject } from '../shared/jsonObject';
import type { PanelStringId } from '../shared/panelStrings';
import type { CautionId, CautionRule, ChangeView, ReadReasonRule, ToolCallStatusView, ToolCallView, ToolFailure } from '../shared/views';
import { formatCount } from './format';
import { t } from './l10n';

/** What each status reads as on a card. */
export const statusText: Readonly<Record<ToolCallStatusView, string>> = {
  forming: t('toolForming'),
  queued: t('toolQueued'),
  awaitingApproval: t('toolAwaitingApproval'),
  running: t('toolRunning'),
  done: t('toolDone'),
  failed: t('toolFailed'),
  denied: t('toolDenied'),
  invalid: t('toolInvalid'),
  cancelled: t('toolCancelled'),
  skipped: t('toolSkipped'),
};

/** Why a file is always asked, in the user's words, by id (core/tools/sensitivePaths.ts writes the English). */
const cautionTexts: Readonly<Record<CautionId, (values: Readonly<Record<string, string>>) => string | undefined>> = {
  git: () => t('cautionGit'),
  gitSettings: () => t('cautionGitSettings'),
  gitHooks: () => t('cautionGitHooks'),
  vscode: () => t('cautionVscode'),
  codeWorkspace: () => t('cautionCodeWorkspace'),
  devContainer: () => t('cautionDevContainer'),
  instructions: () => t('cautionInstructions'),
  ci: () => t('cautionCi'),
  container: () => t('cautionContainer'),
  buildWrapper: () => t('cautionBuildWrapper'),
  pythonStartup: () => t('cautionPythonStartup'),
  compiledPython: () => t('cautionCompiledPython'),
  installedPackages: () => t('cautionInstalledPackages'),
  packageManifest: () => t('cautionPackageManifest'),
  buildFile: () => t('cautionBuildFile'),
  toolsOnTheirOwn: () => t('cautionToolsOnTheirOwn'),
  toolConfig: () => t('cautionToolConfig'),
  toolFile: () => t('cautionToolFile'),
  dotName: ({ name }) => (name ? t('cautionDotName', { name }) : undefined),
  virtualEnv: () => t('cautionVirtualEnv'),
  ignored: () => t('cautionIgnored'),
};

/**
 * A sensitive file's "Always asked" line: the catalogue's text of its reason's id, or the English reason the
 * change carries when the id (or a value its text needs) is one this version does not know.
 */
export function cautionText(change: { readonly caution: string; readonly cautionRule?: CautionRule }): string {
  const rule = change.cautionRule;
  const translated = rule && Object.hasOwn(cautionTexts, rule.id) ? cautionTexts[rule.id](rule.values ?? {}) : undefined;
  return t('alwaysAsked', { reason: translated ?? change.caution });
}

/**
 * Why reading a file is asked first, in the user's words: the catalogue's text of its id (with "path leads to
 * target." before it for a link), or the English reason the change carries for an id this version does not know.
 */
export function readReasonText(change: { readonly reason: string; readonly reasonRule?: ReadReasonRule }): string {
  const { id, values } = change.reasonRule ?? {};
  if (id !== 'secretFile' || !values?.['name']) return change.reason;
  const reason = t('readSecretFile', { name: values['name'] });
  const { path, target } = values;
  return path && target ? t('readLeadsTo', { path, target, reason }) : reason;
}

/** What each kind of failure reads as on a card. */
const failureIds = {
  outsideWorkspace: 'toolFailedOutsideWorkspace',
  notFound: 'toolFailedNotFound',
  changed: 'toolFailedChanged',
  exists: 'toolFailedExists',
  tooLarge: 'toolFailedTooLarge',
  binary: 'toolFailedBinary',
  invalid: 'toolFailedInvalid',
  restricted: 'toolFailedRestricted',
  timeout: 'toolFailedTimeout',
  failed: 'toolFailedOther',
} as const satisfies Readonly<Record<ToolFailure, PanelStringId>>;

/**
 * The line a card's result opens with: for a failed call, why it failed in the user's words (what the model was
 * sent is English, and stays in the section), else "Result: " and the result's first line.
 */
export function resultTitle(view: ToolCallView): string {
  // A view restored from the page's state may come from another version: a kind this one lacks is a plain result.
  if (view.status === 'failed' && view.failure !== undefined && Object.hasOwn(failureIds, view.failure)) return t(failureIds[view.failure]);
  // The result of a call that did not run is our English sentence to the model: name it, and keep it in the section.
  if (view.status === 'denied' || view.status === 'invalid' || view.status === 'skipped' || view.status === 'cancelled') return t('toolToldModel');
  const first = (view.result ?? '').split('\n', 1)[0] ?? '';
  return t('toolResult', { first: first.length > 70 ? `${first.slice(0, 69)}\u2026` : first });
}

/** The argument a reader recognises the call by: the path, the glob, the query or the command. */
export function callSummary(view: ToolCallView): string {
  // The arguments may still be forming: then they do not parse yet.
  const args = parseJsonObject(view.arguments);
  if (!args) return '';
  for (const key of ['path', 'glob', 'query', 'command']) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return value.length > 80 ? `${value.slice(0, 79)}\u2026` : value;
  }
  return '';
}

/** The arguments indented for reading; as they are while they do not parse yet. */
export function prettyArguments(text: string): string {
  const args = parseJsonObject(text);
  return args ? JSON.stringify(args, null, 2) : text;
}

/** What the change is, in words: "Edit src/a.ts", "Create notes.md", "Run a command (time limit 60 s)", "Run deploy from acme.tools". */
export function changeTitle(change: ChangeView): string {
  switch (change.kind) {
    case 'edit':
      return change.replacements ? t('changeEditAll', { path: change.path, count: change.replacements }) : t('changeEdit', { path: change.path });
    case 'create':
      return t('changeCreate', { path: change.path });
    case 'read':
      return t('changeRead', { path: change.path });
    case 'terminal':
      return change.cwd ? t('changeCommandIn', { cwd: change.cwd, seconds: change.timeoutSeconds }) : t('changeCommand', { seconds: change.timeoutSeconds });
    case 'external':
      return t('changeExternal', { tool: change.tool, origin: change.origin });
  }
}

/** What an external tool's card says under its arguments: Cadenza's checkpoints cannot undo what it does. */
export const externalToolNote = t('externalToolNote');

/** The class of a line of a compact diff. */
export function diffLineKind(line: string): 'diff-add' | 'diff-del' | 'diff-hunk' | 'diff-context' {
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-context';
}

/** What a card says under a new file it shows only the head of (the diff view shows it all). */
export function omittedText(omitted: { readonly lines: number; readonly characters: number }): string {
  const characters = formatCount(omitted.characters);
  return omitted.lines === 1 ? t('omittedOne', { characters }) : t('omittedMany', { lines: formatCount(omitted.lines), characters });
}
