import * as vscode from 'vscode';
import type { Logger } from '../core/logger';

/** The one log channel of the extension (house style: one `LogOutputChannel`, no console.*). */
export function createLog(): vscode.LogOutputChannel & Logger {
  return vscode.window.createOutputChannel('Cadenza', { log: true });
}
