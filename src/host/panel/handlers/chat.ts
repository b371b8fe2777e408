// A chat turn from the panel: send (with its image checked again and its audio taken from the host by
// token), stop, regenerate, edit and resend, retry, and Save again after a failed save.
import type { FromWebviewOf } from '../../../shared/protocol';
import { checkDataUrl } from '../../chat/images';
import type { Handlers, PanelParts } from '../router';

type Parts = Pick<PanelParts, 'channel' | 'chat' | 'audio' | 'prompts'>;

/** `chat/send`: an audio token is exchanged for the audio the host kept; a bad one stops the send with a notice. */
async function send({ channel, chat, audio: panelAudio, prompts }: Parts, message: FromWebviewOf<'chat/send'>): Promise<void> {
  // A prompt file is filled in first (its input boxes may be dismissed): nothing else is taken before it can run.
  const prepared = message.prompt === undefined ? undefined : await prompts.prepare(message.prompt, message.text);
  if (message.prompt !== undefined && !prepared) return;
  // The webview is untrusted input: its image is checked again, as image/check does, before it is stored and sent.
  const image = message.image === undefined ? undefined : checkDataUrl(message.image);
  if (typeof image === 'string') {
    channel.post({ type: 'notice', level: 'error', text: image });
    return;
  }
  const audio = message.audio === undefined ? undefined : await panelAudio.take(message.audio, (await chat.session.current()).model);
  if (typeof audio === 'string') {
    // An error notice also tells the composer the send failed, so the typed text and the chip stay.
    channel.post({ type: 'notice', level: 'error', text: audio });
    return;
  }
  const run = prepared && {
    chip: prepared.chip,
    title: `/${prepared.chip.name} ${message.text}`,
    overrides: { ...(prepared.model !== undefined ? { model: prepared.model } : {}), tools: prepared.tools },
  };
  await chat.turns.send(prepared?.text ?? message.text, message.options, image, audio, message.mentions ?? [], run);
}

export function chatHandlers(parts: Parts): Handlers<'chat/send' | 'chat/stop' | 'chat/regenerate' | 'chat/editResend' | 'chat/retrySave' | 'chat/retry'> {
  const { chat } = parts;
  return {
    'chat/send': (message) => send(parts, message),
    'chat/stop': () => chat.answering.stop(),
    'chat/regenerate': async (message) => {
      await chat.turns.regenerate(message.options);
    },
    'chat/editResend': async (message) => {
      await chat.turns.editResend(message.messageId, message.text, message.options);
    },
    'chat/retry': async (message) => {
      await chat.turns.retry(message.trim, message.options);
    },
    'chat/retrySave': async ({ messageId }) => {
      const error = await chat.session.saveAtEnd(await chat.session.current());
      if (error !== undefined) return { type: 'chat/saveResult', messageId, error };
      // Saved: the list shows the conversation with its new time.
      await chat.panel.conversations();
      return { type: 'chat/saveResult', messageId };
    },
  };
}
