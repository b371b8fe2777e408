/**
 * VS Code `files.exclude` / `search.exclude` patterns turned into gitignore rules for `ignore`.
 *
 * The settings map glob patterns to `true` (exclude), `false` (this pattern is switched off, as when a
 * user overrides a default) or `{ when: "$(basename).ts" }` (exclude only when a sibling with that
 * name exists). VS Code globs are relative to the workspace folder; gitignore patterns without a
 * slash match at any depth, so every pattern not starting with `**` is anchored with a leading `/`.
 * `{a,b}` alternatives (nested too) are expanded into one rule each, since gitignore has no braces.
 * `*`, `?`, `**` and `[...]` mean the same in both syntaxes.
 */

/** Rules derived from the exclude settings: plain rules, and rules that depend on a sibling file. */
export interface ExcludeRules {
  readonly rules: readonly string[];
  readonly conditional: readonly { readonly rules: readonly string[]; readonly when: string }[];
}

/** Expands `{a,b}` alternatives, innermost first, into every combination. */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  if (open < 0) return [glob];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        const head = glob.slice(0, open);
        const tail = glob.slice(i + 1);
        const bounds = [open, ...commas, i];
        const out: string[] = [];
        for (let k = 0; k + 1 < bounds.length; k++) {
          const alternative = glob.slice((bounds[k] ?? 0) + 1, bounds[k + 1]);
          for (const expanded of expandBraces(head + alternative + tail)) out.push(expanded);
        }
        return out;
      }
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  return [glob];
}

/** One VS Code glob as gitignore rules (several when it has braces); none for unusable patterns. */
export function globToGitignore(glob: string): string[] {
  const out: string[] = [];
  for (let g of expandBraces(glob.trim().replace(/\\/g, '/'))) {
    g = g.replace(/^\.\//, '');
    if (g === '' || g.startsWith('/') || /^[A-Za-z]:/.test(g)) continue; // absolute paths never match relative ones
    let rule = g.startsWith('**') ? g : `/${g}`;
    rule = rule.replace(/ +$/, (spaces) => spaces.replace(/ /g, '\\ '));
    out.push(rule);
  }
  return out;
}

/** Converts merged exclude settings (`files.exclude` then `search.exclude`) into rules. */
export function excludesToRules(settings: Readonly<Record<string, unknown>> | undefined): ExcludeRules {
  const rules: string[] = [];
  const conditional: { rules: string[]; when: string }[] = [];
  for (const [glob, value] of Object.entries(settings ?? {})) {
    if (value === true) rules.push(...globToGitignore(glob));
    else if (typeof value === 'object' && value !== null) {
      const when = (value as { when?: unknown }).when;
      if (typeof when === 'string' && when.length > 0) conditional.push({ rules: globToGitignore(glob), when });
    }
  }
  return { rules, conditional };
}
