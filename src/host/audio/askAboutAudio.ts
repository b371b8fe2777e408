import * as vscode from 'vscode';
import { toAudioDataUrl } from '../../core/audio/dataUrl';
import { checkAudioForFamily } from '../../core/audio/limits';
import { audioProblemText } from './audioProblemText';
import type { ChatController } from '../chat/chatController';
import type { ServiceConnection } from '../service/connection';
import type { PanelPort } from '../panel/panelPort';
import { pickAudioFiles } from './audioPickers';
import { baseName, inspectUri } from './audioUpload';
import { urisFrom } from './transcribeCommand';

/**
 * `cadenza.askAboutAudio`: asks a question about one audio file, sends the audio inline as an
 * `audio_content` part to the audio-reasoning operation, and streams the answer into the chat panel,
 * where the conversation can go on. Arguments: (Uri, { question?, model? }). Returns the answer text.
 */
export async function askAboutAudio(
  connection: ServiceConnection,
  chat: ChatController,
  panel: PanelPort,
  first?: unknown,
  second?: unknown,
): Promise<string | undefined> {
  const options = typeof second === 'object' && second !== null && !Array.isArray(second) ? (second as Record<string, unknown>) : {};
  const uri = urisFrom(first, Array.isArray(second) ? second : undefined)[0] ?? (await pickAudioFiles())[0];
  if (!uri) return undefined;
  const models = (await connection.ensureModels()).filter((model) => model.capabilities.includes('audioReasoning'));
  const modelId = typeof options['model'] === 'string' ? options['model'] : models[0]?.id;
  if (!modelId) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The service lists no model that reasons about audio.'));
    return undefined;
  }
  const name = baseName(uri);
  // Checked from the file's head and tail first: an over-long recording is refused without reading it whole.
  const facts = await inspectUri(uri);
  const problem = checkAudioForFamily(facts, 'audioInstruct');
  if (problem || !facts.format) {
    void vscode.window.showErrorMessage(vscode.l10n.t('{0}: {1}', name, audioProblemText(problem ?? { kind: 'notAudio' }, 'attach')));
    return undefined;
  }
  const format = facts.format;
  const question =
    typeof options['question'] === 'string'
      ? options['question']
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Cadenza: ask about {0}', name),
          prompt: vscode.l10n.t('What do you want to know about this audio?'),
          ignoreFocusOut: true,
        });
  if (!question?.trim()) return undefined;
  await panel.reveal();
  const bytes = await vscode.workspace.fs.readFile(uri);
  return chat.turns.askAboutAudio(modelId, { name, dataUrl: toAudioDataUrl(bytes, format) }, question.trim());
}
