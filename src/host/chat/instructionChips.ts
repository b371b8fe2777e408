// The project instructions in the chat panel: the chips naming the instruction files that apply (and whether
// this conversation uses them), opening one, and their prompt section as last read, which the context meter
// counts (the meter is synchronous, so it cannot read the files itself). Reading the files is projectInstructions.ts.
import { joinSections, type ContextProvider } from '../../core/chat/context/contextProvider';
import type { Conversation, StoredOptions } from '../../core/chat/conversation';
import { instructionsProvider } from './context/systemProviders';
import type { ProjectInstructions } from './projectInstructions';
import type { PanelSink } from './turnTypes';

/** The instruction chips of the panel and the instructions' share of the meter. */
export class InstructionChips {
  /** The instructions' prompt section as last read, so the meter (which is synchronous) counts it. */
  private prompt = '';

  constructor(
    private readonly sink: PanelSink,
    private readonly instructions: ProjectInstructions,
  ) {}

  /** Opens an instruction file a chip names. */
  async open(relativePath: string): Promise<void> {
    await this.instructions.open(relativePath);
  }

  /**
   * Tells the panel which instruction files apply and whether the conversation `current` resolves to uses
   * them; resolves with that conversation (for the meter).
   */
  async post(current: () => Promise<Conversation>): Promise<Conversation> {
    const applied = await this.instructions.current();
    this.prompt = applied.prompt;
    const conversation = await current();
    this.sink({
      type: 'state/instructions',
      files: applied.files.map((file) => ({ path: file.path, tokens: file.tokens, cut: file.cut })),
      enabled: conversation.options.useInstructions !== false,
      untrusted: applied.untrusted,
    });
    return conversation;
  }

  /** The options with the project instructions as last read before the user's own system prompt, for the meter. */
  withInstructions(options: StoredOptions): StoredOptions {
    if (options.useInstructions === false || this.prompt === '') return options;
    return { ...options, systemPrompt: joinSections([this.prompt, options.systemPrompt]) };
  }

  /** The turn's provider of the instructions' prompt section (nothing when the conversation turned them off). */
  provider(options: StoredOptions): ContextProvider {
    return instructionsProvider(this.instructions, options);
  }

  /** Keeps the prompt section a turn just read (its `beforePrompt` parts), unless the conversation turned instructions off. */
  remember(options: StoredOptions, beforePrompt: readonly { readonly text: string }[]): void {
    if (options.useInstructions !== false) this.prompt = beforePrompt.map((part) => part.text).join('\n\n');
  }
}
