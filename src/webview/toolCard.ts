/**
 * One tool call of the agent, as a card: the function, a one-line summary of its arguments, its status,
 * the change it proposes (a diff, a new file, the command in full, another extension's tool with its
 * arguments) with Approve / Deny (and "Allow edits for this conversation" for edits and new files, never for
 * commands; "Allow <tool> for this conversation" for another extension's tool), and the arguments and the
 * result as collapsible sections.
 */
import type { ApprovalDecision } from '../shared/protocol';
import type { ChangeView, ToolCallStatusView, ToolCallView } from '../shared/views';
import { button, el } from './dom';
import { icon, type IconName } from './icons';
import type { PanelContext } from './panelContext';
import {
  callSummary,
  cautionText,
  changeTitle,
  diffLineKind,
  externalToolNote,
  omittedText,
  prettyArguments,
  readReasonText,
  resultTitle,
  statusText,
} from './toolText';
import { t } from './l10n';

const statusIcon: Partial<Readonly<Record<ToolCallStatusView, IconName>>> = {
  done: 'check',
  failed: 'warning',
  invalid: 'warning',
  denied: 'close',
  cancelled: 'close',
  skipped: 'close',
};

function diffBlock(diff: string): HTMLElement {
  const pre = el('pre', { className: 'tool-diff', attrs: { 'aria-label': t('proposedDiff') } });
  const lines = diff.split('\n');
  lines.forEach((line, index) => {
    const kind = diffLineKind(line);
    // Each line is a block; the newline stays in the text so a copied diff keeps its lines.
    pre.append(el('span', { className: kind, text: index < lines.length - 1 ? `${line}\n` : line }));
  });
  return pre;
}

function changeBlock(change: ChangeView, args: string): HTMLElement {
  const block = el('div', { className: `tool-change tool-change-${change.kind}` }, el('p', { className: 'tool-change-title', text: changeTitle(change) }));
  if ((change.kind === 'edit' || change.kind === 'create') && change.caution) {
    block.append(
      el('p', {
        className: 'tool-caution',
        text: cautionText({ caution: change.caution, ...(change.cautionRule ? { cautionRule: change.cautionRule } : {}) }),
        attrs: { role: 'note' },
      }),
    );
  }
  switch (change.kind) {
    case 'edit':
      block.append(diffBlock(change.diff));
      break;
    case 'create':
      block.append(el('pre', { className: 'tool-content', text: change.content, attrs: { 'aria-label': t('contentOf', { path: change.path }) } }));
      if (change.omitted) block.append(el('p', { className: 'tool-omitted', text: omittedText(change.omitted) }));
      break;
    case 'read':
      block.append(el('p', { className: 'tool-caution', text: readReasonText(change), attrs: { role: 'note' } }));
      break;
    case 'terminal':
      block.append(el('pre', { className: 'tool-command', text: change.command, attrs: { 'aria-label': t('command') } }));
      break;
    case 'external':
      // Everything the tool is sent, in full and open: a secret in the arguments is seen before it leaves.
      block.append(
        el('pre', { className: 'tool-input', text: prettyArguments(args), attrs: { 'aria-label': t('argumentsSent', { tool: change.tool }) } }),
        el('p', { className: 'tool-caution', text: externalToolNote, attrs: { role: 'note' } }),
      );
      break;
  }
  return block;
}

function section(className: string, summary: string, body: string, open: boolean): HTMLDetailsElement {
  const details = el('details', { className }, el('summary', { text: summary }), el('pre', { text: body }));
  details.open = open;
  return details;
}

/** A tool call's card; `update` replaces what it shows, keeping which sections the user opened. */
export class ToolCard {
  readonly element: HTMLElement;
  private view: ToolCallView;

  /** `live` when the call just appeared (a call that already waits for approval is then announced). */
  constructor(
    view: ToolCallView,
    private readonly context: PanelContext,
    live = false,
  ) {
    this.view = view;
    this.element = el('section', { className: 'tool-card' });
    this.render(live && view.status === 'awaitingApproval');
  }

  /** The call's current state; `live` when it just changed (a new approval request is announced). */
  update(view: ToolCallView, live: boolean): void {
    const asking = view.status === 'awaitingApproval' && this.view.status !== 'awaitingApproval';
    this.view = view;
    this.render(live && asking);
  }

  private render(announce: boolean): void {
    const view = this.view;
    const openArgs = this.element.querySelector<HTMLDetailsElement>('.tool-args')?.open ?? false;
    const oldResult = this.element.querySelector<HTMLDetailsElement>('.tool-result');
    const openResult = oldResult ? oldResult.open : view.status === 'failed' || view.status === 'invalid';
    const summary = callSummary(view);
    const name = view.name || 'function';
    this.element.className = `tool-card status-${view.status}`;
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', `${name}${summary ? ` ${summary}` : ''}: ${statusText[view.status]}`);
    this.element.setAttribute('aria-busy', String(view.status === 'forming' || view.status === 'running'));
    const mark = statusIcon[view.status];
    const header = el(
      'div',
      { className: 'tool-header' },
      mark ? icon(mark) : el('span', { className: 'tool-spinner', attrs: { 'aria-hidden': 'true' } }),
      el('span', { className: 'tool-name', text: name }),
      el('span', { className: 'tool-summary', text: summary, attrs: { title: summary } }),
      el('span', { className: 'tool-status', text: statusText[view.status] }),
    );
    const parts: HTMLElement[] = [header];
    if (view.origin !== undefined) parts.push(el('p', { className: 'tool-origin', text: t('toolFrom', { origin: view.origin }) }));
    if (view.images?.length) {
      parts.push(
        el(
          'div',
          { className: 'tool-images' },
          ...view.images.map((image, index) =>
            el('img', { className: 'tool-image', attrs: { src: image.dataUrl, alt: t('toolImage', { index: index + 1, type: image.mimeType }) } }),
          ),
        ),
      );
    }
    if (view.change) parts.push(changeBlock(view.change, view.arguments));
    if (view.status === 'awaitingApproval' && view.change) parts.push(this.approvalButtons(view.change));
    // An external tool's card shows its arguments open in the change block already.
    if (view.arguments !== '' && view.status !== 'forming' && view.change?.kind !== 'external')
      parts.push(section('tool-args', t('arguments'), prettyArguments(view.arguments), openArgs));
    else if (view.status === 'forming') parts.push(el('pre', { className: 'tool-forming', text: view.arguments }));
    if (view.result !== undefined) parts.push(section('tool-result', resultTitle(view), view.result, openResult));
    this.element.replaceChildren(...parts);
    if (announce && view.change) this.context.announce(t('toolAsks', { change: changeTitle(view.change) }));
  }

  private approvalButtons(change: ChangeView): HTMLElement {
    const title = changeTitle(change);
    const decide = (decision: ApprovalDecision): void => {
      for (const control of bar.querySelectorAll('button')) control.disabled = true;
      this.context.post({ type: 'tool/approve', callId: this.view.id, decision });
    };
    // Each name starts with the button's visible text (WCAG 2.5.3): a voice user says what they see.
    const [approveText, approveLabel] =
      change.kind === 'terminal' || change.kind === 'external'
        ? [t('run'), t('runLabel', { title })]
        : change.kind === 'read'
          ? [t('allowReading'), t('allowReadingLabel', { title })]
          : [t('approve'), t('approveLabel', { title })];
    const approve = button({ text: approveText, label: approveLabel, icon: 'check', className: 'text-button', onClick: () => decide('approve') });
    const deny = button({
      text: t('deny'),
      label: t('denyLabel', { title }),
      icon: 'close',
      className: 'text-button secondary',
      onClick: () => decide('deny'),
    });
    const bar = el('div', { className: 'tool-approval', attrs: { role: 'toolbar', 'aria-label': t('approveOrDeny', { title }) } }, approve, deny);
    // Edits and new files may be allowed for the rest of the conversation; commands are always asked one by one.
    // So is any file but an ordinary source or text file (the card says why).
    if ((change.kind === 'edit' || change.kind === 'create') && !change.caution) {
      bar.append(
        button({
          text: t('allowEdits'),
          label: t('allowEditsLabel'),
          className: 'text-button secondary',
          onClick: () => decide('allowConversation'),
        }),
      );
    }
    // Another extension's or an MCP server's tool is never covered by the edit allowance; it may be allowed on its own.
    if (change.kind === 'external') {
      bar.append(
        button({
          text: t('allowTool', { tool: change.tool }),
          label: t('allowToolLabel', { tool: change.tool }),
          className: 'text-button secondary',
          onClick: () => decide('allowTool'),
        }),
      );
    }
    if (change.kind === 'edit' || change.kind === 'create') {
      bar.append(
        button({
          text: t('showDiff'),
          label: t('showDiffLabel', { path: change.path }),
          icon: 'open',
          className: 'text-button secondary',
          onClick: () => this.context.post({ type: 'tool/showDiff', callId: this.view.id }),
        }),
      );
    }
    return bar;
  }
}
