// What the composer attaches through the host: an image picked or checked, an audio file kept under a token,
// a transcript for the prompt, and a JSON schema from the workspace. A file that will not do comes back as a
// notice saying why.
import * as vscode from 'vscode';
import type { ReplyTo } from '../../../shared/protocol';
import { checkDataUrl, pickImage } from '../../chat/images';
import type { Handlers, PanelParts } from '../router';
import type { PanelChannel } from '../panelChannel';

/** An image checked by the host: the composer's attachment, or (a warning) why it cannot be. */
function imageReply(channel: PanelChannel, result: Awaited<ReturnType<typeof pickImage>>): ReplyTo<'image/pick'> | undefined {
  if (result === undefined) return undefined;
  if (typeof result !== 'string') return { type: 'composer/image', image: result };
  channel.post({ type: 'notice', level: 'warning', text: result });
  return undefined;
}

/** A JSON schema file picked from the workspace (an object, else a warning naming the file). */
async function pickSchema(channel: PanelChannel): Promise<ReplyTo<'schema/pick'> | undefined> {
  const files = await vscode.workspace.findFiles('**/*.json', '**/node_modules/**', 500);
  const picked = await vscode.window.showQuickPick(
    files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    { title: vscode.l10n.t('JSON schema for the answer'), placeHolder: vscode.l10n.t('Pick a .json schema file from the workspace') },
  );
  if (!picked) return undefined;
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(picked.uri));
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return { type: 'composer/schema', name: picked.label, schema: text };
  } catch {
    channel.post({ type: 'notice', level: 'warning', text: vscode.l10n.t('{0} is not a JSON schema object.', picked.label) });
    return undefined;
  }
}

export function attachmentsHandlers({
  channel,
  audio,
}: Pick<PanelParts, 'channel' | 'audio'>): Handlers<'image/pick' | 'image/check' | 'audio/pick' | 'audio/transcribeIntoPrompt' | 'schema/pick'> {
  return {
    'image/pick': async () => imageReply(channel, await pickImage()),
    'image/check': (message) => imageReply(channel, checkDataUrl(message.image)),
    // Panel audio posts its answer itself: the integration suites call it with the file the dialog would give.
    'audio/pick': async () => {
      await audio.pick();
    },
    'audio/transcribeIntoPrompt': async () => {
      await audio.transcribeIntoPrompt();
    },
    'schema/pick': () => pickSchema(channel),
  };
}
