import * as vscode from 'vscode';
import type { TransportOptions } from '../core/api/transport';
import { loadSystemCertificates } from '../core/net/systemCertificates';

/**
 * VS Code patches the global `fetch` for proxies and the OS's certificates; the client runs on its own
 * undici dispatcher, so it gets the same from here: `http.proxy`, `http.noProxy`, `http.proxyStrictSSL`,
 * the environment's HTTPS_PROXY/NO_PROXY (read by the transport), and the OS certificates when
 * `http.systemCertificates` is on (VS Code's default), plus `NODE_EXTRA_CA_CERTS` (read by the transport).
 */
export function readTransportOptions(): TransportOptions {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<string>('proxy', '').trim();
  const noProxy = http.get<string[]>('noProxy', []).filter((entry) => typeof entry === 'string' && entry.trim() !== '');
  const useSystemCertificates = http.get<boolean>('systemCertificates', true);
  return {
    ...(proxy ? { proxy } : {}),
    ...(noProxy.length > 0 ? { noProxy } : {}),
    proxyStrictSSL: http.get<boolean>('proxyStrictSSL', true),
    ...(useSystemCertificates ? { extraCaCertificates: loadSystemCertificates() } : {}),
    useEnvironment: true,
  };
}

/** True when a configuration change affects how Cadenza connects. */
export function affectsConnection(event: vscode.ConfigurationChangeEvent): boolean {
  return [
    'cadenza.baseUrl',
    'cadenza.chatBaseUrl',
    'cadenza.endpoints.embeddings',
    'cadenza.endpoints.audio',
    'cadenza.requestTimeoutSeconds',
    'cadenza.maxRetries',
    'cadenza.models.overrides',
    'http.proxy',
    'http.noProxy',
    'http.proxyStrictSSL',
    'http.systemCertificates',
  ].some((key) => event.affectsConfiguration(key));
}
