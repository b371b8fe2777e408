/**
 * The line under an answer: tokens in and out, time to first token, speed, total time, cost, and
 * whether the service reported the figures or Cadenza measured them; and the JSON check result.
 */
import type { JsonCheckView } from '../shared/protocol';
import type { UsageView } from '../shared/views';
import { el } from './dom';
import { icon } from './icons';
import { usageParts } from './format';
import { t } from './l10n';

/** The usage figures as one line of small text; each figure has a tooltip saying what it is. */
export function usageLine(usage: UsageView): HTMLElement {
  const line = el('p', { className: `usage-line source-${usage.source}` });
  usageParts(usage).forEach((part, index) => {
    if (index > 0) line.append(el('span', { className: 'separator', text: ' \u00b7 ', attrs: { 'aria-hidden': 'true' } }));
    line.append(el('span', { text: part.text, attrs: { title: part.title } }));
  });
  return line;
}

/** The result of checking a JSON answer: valid (and conforming), or the problems found. */
export function jsonCheckBlock(check: JsonCheckView, withSchema: boolean): HTMLElement {
  const block = el('div', { className: `json-check ${check.valid ? 'valid' : 'invalid'}` });
  const summary = el('p', { className: 'json-check-summary' }, icon(check.valid ? 'check' : 'warning'));
  const problems = check.problems.length;
  summary.append(el('span', { text: check.valid ? t(withSchema ? 'jsonMatchesSchema' : 'jsonValid') : invalidText(withSchema, problems) }));
  block.append(summary);
  if (problems > 0) {
    const list = el('ul', { className: 'json-problems' });
    for (const problem of check.problems) list.append(el('li', { text: problem }));
    block.append(list);
  }
  return block;
}

/** What a JSON answer that failed its check is: not JSON, or not what the schema asks, with how many problems. */
function invalidText(withSchema: boolean, problems: number): string {
  if (problems === 0) return t(withSchema ? 'jsonNoMatch' : 'jsonInvalid');
  if (withSchema) return t(problems === 1 ? 'jsonNoMatchOne' : 'jsonNoMatchMany', { count: problems });
  return t(problems === 1 ? 'jsonInvalidOne' : 'jsonInvalidMany', { count: problems });
}
