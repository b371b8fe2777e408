/** The project instruction files (AGENTS.md, .cadenza/instructions.md…) that apply to the open conversation. */
import { message, text } from './schema';

/** A project instruction file as the panel shows it. */
export interface InstructionView {
  /** Workspace-relative. */
  readonly path: string;
  readonly tokens: number;
  /** Cut (or left out) to fit the instructions' budget. */
  readonly cut: boolean;
}

/** Host → webview. */
export type InstructionsToWebview =
  /**
   * The project instruction files that apply to the open conversation, each with its token cost, and whether
   * this conversation uses them (the chip's toggle).
   */
  { readonly type: 'state/instructions'; readonly files: readonly InstructionView[]; readonly enabled: boolean; readonly untrusted: boolean };

/** Webview → host. */
export const instructionsFromWebview = [
  /** Open a project instruction file (a chip of `state/instructions`), by its workspace-relative path. */
  message('instructions/open', { path: text }),
] as const;
