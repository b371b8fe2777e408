// The fewest tests each tier of `npm test` may pass. A tier that passes fewer fails, even when nothing
// in it failed: the Restricted Mode tiers pick their tests by title (`real workspace trust`) or by file
// name (`*.untrusted.ui.mjs`), so a renamed suite or file would otherwise leave the tier silently, and a
// suite whose tests stop loading would go unnoticed in any tier.
//
// These are floors, not exact counts: adding tests never needs a change here. Removing or renaming tests
// on purpose does: lower the floor in the same commit and say why. Raise a floor when a tier has grown a
// good deal, so that losing the new tests is caught too. Set from a full run's counts of 28 November 2026.
export const tierFloors = {
  // Its checks: package, bundle, two type-checks, lint, format (Prettier), documents (scripts/checkDocs.mjs),
  // translations (scripts/checkL10n.mjs).
  static: 8,
  unit: 1030,
  webview: 209,
  integration: 253,
  // The suites titled `... real workspace trust` (agent, chat, index, project instructions, completions, prompt files).
  'restricted mode': 18,
  llama: 32,
  'real models': 9,
  ui: 54,
  // test/ui/agentRestricted.untrusted.ui.mjs
  'ui restricted mode': 1,
  // test/ui/displayLanguage.de.ui.mjs (the palette, the panel, the index's question, the completions tooltip, the Settings editor in German).
  'ui display language': 5,
};

/**
 * Why a tier that passed `passed` tests is short of its floor, or undefined when it is not (or the tier
 * has no floor). `floors` defaults to the table above.
 */
export function belowFloor(name, passed, floors = tierFloors) {
  const floor = floors[name];
  if (floor === undefined || passed >= floor) return undefined;
  return `${name}: ${passed} passed, fewer than the ${floor} it must run (scripts/tierFloors.mjs): a suite renamed, removed or no longer loaded?`;
}
