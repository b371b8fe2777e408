// A tool call of the agent as the conversation stores it (its change without the whole file) and as its
// card in the panel shows it.
import { cautionIds, readReasonIds, toolFailures, type ChangeView, type ToolCallView, type ToolFailure } from '../../../shared/views';
import { contentPreview } from '../../tools/resultText';
import type { ChangePreview } from '../../tools/toolTypes';
import type { StoredToolCall } from '../conversation';
import type { ToolCallRecord } from '../toolLoop';

/** What a change looks like in the stored conversation (the whole file stays out of it). */
function storedChange(preview: ChangePreview): ChangeView {
  switch (preview.kind) {
    case 'edit':
      return {
        kind: 'edit',
        path: preview.path,
        diff: preview.diff,
        ...(preview.caution ? { caution: preview.caution } : {}),
        ...(preview.cautionRule ? { cautionRule: preview.cautionRule } : {}),
        ...(preview.replacements ? { replacements: preview.replacements } : {}),
      };
    case 'create': {
      const { text, omitted } = contentPreview(preview.content);
      return {
        kind: 'create',
        path: preview.path,
        content: text,
        ...(omitted ? { omitted } : {}),
        ...(preview.caution ? { caution: preview.caution } : {}),
        ...(preview.cautionRule ? { cautionRule: preview.cautionRule } : {}),
      };
    }
    case 'read':
      return { kind: 'read', path: preview.path, reason: preview.reason, ...(preview.reasonRule ? { reasonRule: preview.reasonRule } : {}) };
    case 'terminal':
      return { kind: 'terminal', command: preview.command, ...(preview.cwd ? { cwd: preview.cwd } : {}), timeoutSeconds: preview.timeoutSeconds };
    case 'external':
      // The input is the call's own arguments, stored beside it.
      return { kind: 'external', tool: preview.tool, origin: preview.origin };
  }
}

/** A call of the tool loop as the conversation stores it. */
export function storedCall(record: ToolCallRecord): StoredToolCall {
  return {
    id: record.id,
    name: record.name,
    arguments: record.arguments,
    status: record.status,
    ...(record.result !== undefined ? { result: record.result } : {}),
    ...(record.failure !== undefined ? { failure: record.failure } : {}),
    ...(record.preview ? { change: storedChange(record.preview) } : {}),
    ...(record.origin !== undefined ? { origin: record.origin } : {}),
    ...(record.images ? { images: record.images } : {}),
  };
}

/** A failure kind the panel knows: a conversation file is read as it is, and may come from another version. */
function isToolFailure(value: unknown): value is ToolFailure {
  return (toolFailures as readonly unknown[]).includes(value);
}

/** A reason id the panel knows (one of `ids`), with string values: a conversation file may come from another version. */
function isKnownRule(value: unknown, ids: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { id, values } = value as { readonly id?: unknown; readonly values?: unknown };
  const valuesOk = values === undefined || (typeof values === 'object' && values !== null && Object.values(values).every((text) => typeof text === 'string'));
  return (ids as readonly unknown[]).includes(id) && valuesOk;
}

/** A stored change as its card shows it: a reason id it does not know leaves the English `caution` or `reason` alone. */
function knownChange(change: ChangeView): ChangeView {
  if (change.kind === 'read') {
    if (change.reasonRule === undefined || isKnownRule(change.reasonRule, readReasonIds)) return change;
    const { reasonRule: _unknown, ...rest } = change;
    return rest;
  }
  if ((change.kind !== 'edit' && change.kind !== 'create') || change.cautionRule === undefined || isKnownRule(change.cautionRule, cautionIds)) return change;
  const { cautionRule: _unknown, ...rest } = change;
  return rest;
}

/** A stored tool call as its card shows it. */
export function toolCallView(call: StoredToolCall, index: number): ToolCallView {
  return {
    index,
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    status: call.status,
    ...(call.result !== undefined ? { result: call.result } : {}),
    ...(call.status === 'failed' && isToolFailure(call.failure) ? { failure: call.failure } : {}),
    ...(call.change ? { change: knownChange(call.change) } : {}),
    ...(call.origin !== undefined ? { origin: call.origin } : {}),
    ...(call.images?.length ? { images: call.images } : {}),
  };
}
