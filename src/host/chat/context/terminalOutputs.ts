// The terminal mention: the last command each terminal ran and its output, read through shell integration
// (`window.onDidStartTerminalShellExecution`, `execution.read()`), which only gives output to a reader that
// started listening when the command started. So this listens from activation on and keeps the end of the
// last command's output per terminal. A terminal's selection cannot be read: stable VS Code has no API for
// it (`Terminal.selection` is a proposed API), and reading it through the clipboard would overwrite the
// user's clipboard.
import * as vscode from 'vscode';
import { TerminalText } from '../../../core/chat/context/terminalText';

/** The output kept per command: the end of a long output matters most (errors, summaries). */
const maxOutputChars = 32_000;

/** A terminal's last command: its output is the text the terminal shows (escape sequences applied). */
export interface LastCommand {
  readonly terminal: string;
  readonly command: string;
  readonly output: TerminalText;
  exitCode?: number;
}

/** Keeps the last command and output of each terminal that has shell integration. */
export class TerminalOutputs implements vscode.Disposable {
  private readonly lastOf = new WeakMap<vscode.Terminal, LastCommand>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(
      vscode.window.onDidStartTerminalShellExecution((event) => void this.follow(event)),
      vscode.window.onDidEndTerminalShellExecution((event) => {
        const last = this.lastOf.get(event.terminal);
        if (last && event.exitCode !== undefined) last.exitCode = event.exitCode;
      }),
    );
  }

  private async follow(event: vscode.TerminalShellExecutionStartEvent): Promise<void> {
    const entry: LastCommand = { terminal: event.terminal.name, command: event.execution.commandLine.value, output: new TerminalText(maxOutputChars) };
    this.lastOf.set(event.terminal, entry);
    for await (const data of event.execution.read()) entry.output.write(data);
  }

  /** The terminal's last command and output, or why there is none. */
  last(terminal: vscode.Terminal | undefined): LastCommand | string {
    if (!terminal) return vscode.l10n.t('No terminal is active.');
    return (
      this.lastOf.get(terminal) ??
      (terminal.shellIntegration
        ? vscode.l10n.t('This terminal has run no command since Cadenza started.')
        : vscode.l10n.t('This terminal has no shell integration, so its output cannot be read (turn on terminal.integrated.shellIntegration.enabled).'))
    );
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
