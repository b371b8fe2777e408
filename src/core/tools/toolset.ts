// The functions one agent turn offers: the read-only ones always, the changing ones only in a trusted
// workspace (Restricted Mode never even sends their schemas).
import { changeToolDefinitions } from './definitions';
import { changeTools, type ChangeOptions } from './changeTools';
import { defaultReadLimits, readTools, type ReadLimits } from './readTools';
import type { Tool } from './toolTypes';
import type { WorkspacePort } from './workspacePort';

/** The tools of a turn, and why the ones left out are missing (told to a model that calls them anyway). */
export interface Toolset {
  readonly tools: readonly Tool[];
  readonly unavailable: Readonly<Record<string, string>>;
  readonly trusted: boolean;
}

/** Builds the toolset for the workspace's trust right now. */
export function workspaceToolset(port: WorkspacePort, options: ChangeOptions & { readonly limits?: ReadLimits }): Toolset {
  const trusted = port.isTrusted();
  const reads = readTools(port, options.limits ?? defaultReadLimits);
  if (trusted) return { tools: [...reads, ...changeTools(port, options)], unavailable: {}, trusted };
  const reason = 'is not available: the workspace is in Restricted Mode, where Cadenza only reads. Describe the change for the user instead.';
  const unavailable = Object.fromEntries(changeToolDefinitions.map((definition) => [definition.name, `${definition.name} ${reason}`]));
  return { tools: reads, unavailable, trusted };
}
