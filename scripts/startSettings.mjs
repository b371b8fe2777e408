// The User settings of the profile `npm start` creates (scripts/start.mjs), kept apart so a test can read
// them without starting anything.

/**
 * `cadenza.baseUrl` is application-scoped (a user setting only), so it goes here, with the local stack's
 * per-operation endpoints. `chat.allowAnonymousAccess` lets VS Code's own chat (agent mode included) run
 * without a GitHub sign-in, so a newcomer can use it on Cadenza's models straight away. The code-server
 * workbench (`web`) also gets telemetry and update checks off.
 *
 * @param {{ baseUrl: string, settings: Record<string, unknown> }} service
 * @param {{ web: boolean }} options
 * @returns {Record<string, unknown>}
 */
export function startUserSettings(service, { web }) {
  return {
    'cadenza.baseUrl': service.baseUrl,
    ...service.settings,
    'workbench.startupEditor': 'none',
    'chat.allowAnonymousAccess': true,
    ...(web ? { 'telemetry.telemetryLevel': 'off', 'update.mode': 'none' } : {}),
  };
}
