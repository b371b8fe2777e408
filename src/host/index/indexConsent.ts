// Whether this workspace's files may be sent to the service's embeddings: the user's answer to "Build a
// semantic index?" (kept in workspace state), Rebuild Index in this window, `cadenza.index.mode`, and
// workspace trust.
import * as vscode from 'vscode';
import { readIndexSettings } from './indexSettings';
import { teamRepository } from './teamConnection';

const consentKey = 'cadenza.index.consent';

/** The index's permission to read and send this workspace's files. */
export class IndexConsent {
  /** The user ran Rebuild Index in this window: in Restricted Mode, only that lets the index change. */
  private askedThisSession = false;
  /** That Rebuild Index ran with a team index set: the local index then holds every file and follows changes. */
  private rebuiltWithTeam = false;

  constructor(private readonly state: vscode.Memento) {}

  /** Records that the user asked for the index (running Rebuild is consent to send the files). */
  async given(): Promise<void> {
    this.askedThisSession = true;
    this.rebuiltWithTeam = teamRepository() !== '';
    await this.state.update(consentKey, true);
  }

  /** Sets the stored answer (undefined: not asked yet); returns the one before. */
  async answer(value: boolean | undefined): Promise<boolean | undefined> {
    const before = this.state.get<boolean>(consentKey);
    await this.state.update(consentKey, value);
    return before;
  }

  /** The user said no to the question (and has not run Rebuild Index since). */
  get refused(): boolean {
    return this.state.get<boolean>(consentKey) === false;
  }

  /**
   * Whether the index may build or update without the user asking now. Never in Restricted Mode: a
   * repository someone cloned must not get its files (or whatever its links reach) sent to the service
   * because it was opened; there only "Rebuild Index" starts it, and then it follows changes for the session.
   */
  get mayRunUnasked(): boolean {
    return vscode.workspace.isTrusted || this.askedThisSession;
  }

  /** Whether the user let this workspace's files be sent: yes to the question, Rebuild Index, or their own `auto`. */
  get consented(): boolean {
    return this.askedThisSession || readIndexSettings().mode === 'auto' || this.state.get<boolean>(consentKey) === true;
  }

  /** With a team index uncommitted files are embedded at search time (nothing the team has is paid twice), unless Rebuild Index ran with it set. */
  get followsChanges(): boolean {
    return teamRepository() === '' || this.rebuiltWithTeam;
  }

  /**
   * `cadenza.index.mode` "ask": whether to build now. Asks once per workspace (the answer is kept); false
   * when the user said no, or ran Rebuild Index while the question was open (that run builds instead).
   */
  async ask(model: string): Promise<boolean> {
    const stored = this.state.get<boolean>(consentKey);
    if (stored !== undefined) return stored;
    // The buttons are compared by their label, so each is translated once and compared as shown.
    const build = vscode.l10n.t('Build Index');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        "Build a semantic index of this workspace? Its text files are sent to the service's embeddings ({0}); the index stays on this machine.",
        model,
      ),
      build,
      vscode.l10n.t('Not Now'),
    );
    // The user may have run Rebuild Index while this prompt was open: that explicit consent stands.
    if (this.state.get<boolean>(consentKey) === true) return false;
    await this.state.update(consentKey, choice === build);
    return choice === build;
  }
}
