/* global window, document -- the page.evaluate callbacks run in the browser */
// axe-core (Deque's accessibility engine, the one browser devtools and most CI audits use) over the chat
// panel's sandbox page: the rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
// A serious or critical violation fails; moderate and minor ones are printed as notes, not failures.
//
// The engine goes in through the DevTools protocol (page.evaluate of its source), not a <script> tag: the
// page keeps its CSP (scripts only by nonce), which an injected tag would break, and DevTools evaluation is
// outside a page's CSP by design, so the tier's CSP check still sees only what the panel itself does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets run: WCAG 2.x A and AA, and best practices. */
export const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/** The impacts that fail the check. */
const failing = new Set(['serious', 'critical']);

/**
 * Runs axe on the page as it is now. Returns { problems, notes, rules }: problems are the serious and
 * critical violations, one line per rule and element (rule id, impact, the element's selector, what is
 * wrong); notes the lesser ones, one line per rule; rules the number of rules that applied.
 */
export async function axeProblems(page) {
  const installed = await page.evaluate(() => typeof window.axe === 'object');
  if (!installed) await page.evaluate(source);
  const result = await page.evaluate(async (tags) => {
    // The panel skips the layout of messages off screen (content-visibility: auto); axe's contrast rule reads
    // what is behind a text by hit-testing after scrolling it into view, and over skipped boxes it reads the
    // wrong element (a usage line "over" an inline code block above it). Laid out for the run, put back after;
    // this changes no pixel, only when the browser lays things out.
    const skipped = [...document.querySelectorAll('*')].filter((element) => window.getComputedStyle(element).contentVisibility === 'auto');
    for (const element of skipped) element.style.contentVisibility = 'visible';
    const run = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    for (const element of skipped) element.style.removeProperty('content-visibility');
    return {
      violations: run.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({ target: node.target.join(' '), summary: node.failureSummary ?? '' })),
      })),
      rules: run.passes.length + run.violations.length + run.incomplete.length,
    };
  }, axeTags);
  const problems = [];
  const notes = [];
  for (const violation of result.violations) {
    if (!failing.has(violation.impact)) {
      notes.push(`${violation.id} (${violation.impact}): ${violation.help}, ${violation.nodes.length} element(s), first ${violation.nodes[0]?.target}`);
      continue;
    }
    for (const node of violation.nodes) {
      const why = node.summary
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .slice(1, 3)
        .join(' / ');
      problems.push(`${violation.id} (${violation.impact}) at ${node.target}: ${violation.help}${why ? ` [${why}]` : ''}`);
    }
  }
  return { problems, notes, rules: result.rules };
}

/**
 * Collects axe's findings over a theme's scenarios and reports them as one check per theme, each finding
 * naming its scenario: `run` after a scenario is prepared, `report` when the theme's scenarios are done.
 * `record(label, problems, detail)` is the tier's reporter; notes go to `log`.
 */
export function axeByTheme(record, log = (line) => process.stdout.write(`${line}\n`)) {
  let problems = [];
  let scenarios = [];
  return {
    async run(page, scenario, theme) {
      const found = await axeProblems(page);
      scenarios.push(scenario);
      problems.push(...found.problems.map((problem) => `${scenario}/${theme}: ${problem}`));
      for (const note of found.notes) log(`    note (axe, not failing) ${scenario}/${theme}: ${note}`);
    },
    report(theme) {
      if (scenarios.length > 0) record(`axe (WCAG 2.x A/AA and best practices, serious and critical) ${theme}`, problems, `${scenarios.length} scenarios`);
      problems = [];
      scenarios = [];
    },
  };
}
