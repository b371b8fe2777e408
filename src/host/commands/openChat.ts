import * as vscode from 'vscode';
import { viewIds } from '../ids';

/** `cadenza.openChat`: reveals the chat panel in Cadenza's activity-bar container. */
export async function openChat(): Promise<void> {
  await vscode.commands.executeCommand(`${viewIds.chat}.focus`);
}
