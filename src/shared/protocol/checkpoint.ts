/** Checkpoints of agent turns that changed files: what they changed, and putting the files back. */
import * as v from 'valibot';
import type { CheckpointView } from '../views';
import { message } from './schema';

/** A checkpoint's id: plain, so it cannot name a path. */
const checkpointId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,64}$/));

/** Host → webview. */
export type CheckpointToWebview =
  /** The agent turn closed by `messageId` changed files: its checkpoint (recorded, or now restored). */
  { readonly type: 'checkpoint/update'; readonly messageId: string; readonly checkpoint: CheckpointView };

/** Webview → host. */
export const checkpointFromWebview = [
  /** Open what the agent turn of checkpoint `id` changed, as one multi-file diff. */
  message('checkpoint/showChanges', { id: checkpointId }),
  /** Put the files of checkpoint `id` back as they were before its turn (the host asks first, and refuses in Restricted Mode and for another window's turn). */
  message('checkpoint/restore', { id: checkpointId }),
] as const;
