// Shared helpers for the integration suites: reach the extension and its activate() API, wait for things
// with a deadline, start the service emulator for a suite, read what was stored, and answer the extension's
// dialogs. The chat panel is driven and watched through panelDriver.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Conversation } from '../../src/core/chat/conversation';
import { ConversationStore } from '../../src/core/chat/conversationStore';
import type { CadenzaApi } from '../../src/host/extension';
import { startEmulator, type RunningEmulator } from '../support/emulator/emulator';

/** `<publisher>.<name>` from package.json. */
export const extensionId = 'cadenza.cadenza';

/** The contributed-commands part of package.json that the suites check against. */
export interface ManifestCommand {
  readonly command: string;
  readonly title: string;
  readonly category?: string;
}

/** The extension as VS Code knows it; fails the test when it is not installed. */
export function cadenzaExtension(): vscode.Extension<CadenzaApi> {
  const extension = vscode.extensions.getExtension<CadenzaApi>(extensionId);
  if (!extension) throw new Error(`${extensionId} is not loaded in this VS Code`);
  return extension;
}

/** The commands package.json contributes. */
export function manifestCommands(): readonly ManifestCommand[] {
  const manifest: unknown = cadenzaExtension().packageJSON;
  const contributes = (manifest as { contributes?: { commands?: ManifestCommand[] } }).contributes;
  return contributes?.commands ?? [];
}

/** activate()'s API (activates the extension if its activation event has not fired yet). */
export async function cadenzaApi(): Promise<CadenzaApi> {
  return cadenzaExtension().activate();
}

/**
 * Polls `condition` every 50 ms until it holds; fails after `timeoutMs` naming `what` (a function is
 * called at that moment, so the message can show the last state seen).
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Reveals the chat view through the extension's own command and waits until its webview is resolved and
 * has said `ready` (before that, the host queues messages and drops streamed deltas).
 */
export async function openChatView(api: CadenzaApi, timeoutMs = 20_000): Promise<void> {
  await vscode.commands.executeCommand('cadenza.openChat');
  await waitFor(() => api.chatView.isResolved && api.chatView.isReady, 'the chat view to resolve and its webview to say ready', timeoutMs);
}

/**
 * Starts the service emulator for the enclosing suite and points `cadenza.baseUrl` (user settings: it is application-scoped)
 * at it; resets the setting and closes the emulator afterwards. Call it at the top of a `suite` body;
 * the returned getter works from the suite's tests and later hooks.
 */
export function useEmulator(): () => RunningEmulator {
  let emulator: RunningEmulator | undefined;
  suiteSetup(async () => {
    emulator = await startEmulator();
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', emulator.baseUrl, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('the emulator is not running (useEmulator() must be called in a suite body)');
    return emulator;
  };
}

/**
 * A conversation as saved in the extension's conversations folder (what another window or the next session
 * opens), read with a store of its own; undefined when there is no such file.
 */
export async function storedConversation(api: CadenzaApi, id: string): Promise<Conversation | undefined> {
  return new ConversationStore(api.storage.conversationsFolder).load(id);
}

/** A question the extension put to the user while a dialog spy was attached. */
export interface DialogCall {
  readonly kind: 'quickPick' | 'warning' | 'inputBox' | 'openDialog';
  /** The picker's title (or placeholder), the message's text. */
  readonly message: string;
  /** The labels offered. */
  readonly items: readonly string[];
  /** The text an input box opened with (prefilled). */
  readonly value?: string;
  /** An input box's prompt, the line under it. */
  readonly prompt?: string;
  /** Whether a warning was modal. */
  readonly modal?: boolean;
}

/**
 * Replaces the window's question dialogs (quick picks, warning messages, input boxes, open dialogs) with a
 * recorder, so a test sees every question the extension asks and answers it with `answer` (a label of
 * the offered items, or an input box's text; undefined dismisses). The extension and the tests share one
 * `vscode` API object in this extension host, which is what makes the replacement reach the extension.
 * Call `restore()` after.
 */
export function spyOnDialogs(answer: (call: DialogCall) => string | undefined = () => undefined): { readonly calls: DialogCall[]; restore(): void } {
  const calls: DialogCall[] = [];
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = new Map(['showQuickPick', 'showWarningMessage', 'showInputBox', 'showOpenDialog'].map((name) => [name, window[name]]));
  const labelOf = (item: unknown): string =>
    typeof item === 'string' ? item : typeof item === 'object' && item !== null && 'label' in item ? String((item as { label: unknown }).label) : String(item);
  window['showQuickPick'] = async (items: unknown, options?: { title?: string; placeHolder?: string }): Promise<unknown> => {
    const list = (await Promise.resolve(items)) as unknown[];
    const call: DialogCall = { kind: 'quickPick', message: options?.title ?? options?.placeHolder ?? '', items: list.map(labelOf) };
    calls.push(call);
    const chosen = answer(call);
    return list.find((item) => labelOf(item) === chosen);
  };
  window['showWarningMessage'] = async (message: string, ...rest: unknown[]): Promise<unknown> => {
    const offered = rest.filter((entry) => typeof entry === 'string' || (typeof entry === 'object' && entry !== null && 'title' in entry));
    const items = offered.map((entry) => (typeof entry === 'string' ? entry : String((entry as { title: unknown }).title)));
    const first = rest[0];
    const modal = typeof first === 'object' && first !== null && !('title' in first) && (first as { modal?: unknown }).modal === true;
    const call: DialogCall = { kind: 'warning', message, items, modal };
    calls.push(call);
    const chosen = answer(call);
    return offered.find((_entry, index) => items[index] === chosen);
  };
  window['showInputBox'] = async (options?: { title?: string; prompt?: string; value?: string }): Promise<unknown> => {
    const call: DialogCall = {
      kind: 'inputBox',
      message: options?.title ?? options?.prompt ?? '',
      items: [],
      ...(options?.value !== undefined ? { value: options.value } : {}),
      ...(options?.prompt !== undefined ? { prompt: options.prompt } : {}),
    };
    calls.push(call);
    return answer(call);
  };
  window['showOpenDialog'] = async (options?: { title?: string; openLabel?: string }): Promise<unknown> => {
    calls.push({ kind: 'openDialog', message: options?.title ?? options?.openLabel ?? '', items: [] });
    return undefined;
  };
  return {
    calls,
    restore: () => {
      for (const [name, original] of originals) window[name] = original;
    },
  };
}

/**
 * Deletes a git repository a test made in the workspace, after closing it in VS Code's built-in git
 * extension: deleting `.git` under an open repository let that extension's next `git` process exit
 * before it wrote to its stdin, and the EPIPE it did not handle failed whichever hook was running
 * (seen once, on a busy machine, in the @-mentions suite's teardown).
 */
export async function removeGitRepository(root: string): Promise<void> {
  interface GitApi {
    readonly repositories: readonly { readonly rootUri: vscode.Uri }[];
  }
  const extension = vscode.extensions.getExtension<{ readonly enabled: boolean; getAPI(version: 1): GitApi }>('vscode.git');
  const git = extension?.isActive && extension.exports.enabled ? extension.exports.getAPI(1) : undefined;
  const repository = git?.repositories.find((repo) => path.resolve(repo.rootUri.fsPath) === path.resolve(root));
  if (repository) {
    await vscode.commands.executeCommand('git.close', repository.rootUri);
    await waitFor(
      () => !git?.repositories.some((repo) => path.resolve(repo.rootUri.fsPath) === path.resolve(root)),
      () => 'the git extension to close the test repository',
      10_000,
    );
  }
  fs.rmSync(path.join(root, '.git'), { recursive: true, force: true });
}
