import * as vscode from 'vscode';
import type { OperationEndpoint } from '../core/api/endpoints';
import type { ApiKeyStore, EndpointKeyRole } from './apiKeyStore';

/** The operations that may have their own server, with their settings (application-scoped, like `cadenza.baseUrl`). */
export const endpointSettings: Readonly<Record<EndpointKeyRole, string>> = {
  // The chat endpoint predates the others: it is the service's alternative chat host.
  chat: 'cadenza.chatBaseUrl',
  embeddings: 'cadenza.endpoints.embeddings',
  audio: 'cadenza.endpoints.audio',
};

const roles = Object.keys(endpointSettings) as EndpointKeyRole[];

function readAddress(setting: string): string {
  const dot = setting.lastIndexOf('.');
  return vscode.workspace
    .getConfiguration(setting.slice(0, dot))
    .get<string>(setting.slice(dot + 1), '')
    .trim();
}

/** The per-operation endpoints for the client: each address from its setting, each key from SecretStorage. */
export function readEndpoints(keys: ApiKeyStore): Record<EndpointKeyRole, OperationEndpoint> {
  const result = {} as Record<EndpointKeyRole, OperationEndpoint>;
  for (const role of roles) result[role] = { baseUrl: readAddress(endpointSettings[role]), apiKey: () => keys.getFor(role) };
  return result;
}

/** The operations that have an address of their own now. */
export function separateEndpoints(): EndpointKeyRole[] {
  return roles.filter((role) => readAddress(endpointSettings[role]) !== '');
}

/** True when a configuration change moves an operation to another server. */
export function affectsEndpoints(event: vscode.ConfigurationChangeEvent): boolean {
  return Object.values(endpointSettings).some((setting) => event.affectsConfiguration(setting));
}
