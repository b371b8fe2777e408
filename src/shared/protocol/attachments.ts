/**
 * What the composer attaches through the host: an image (picked, or dropped and checked), an audio file
 * (kept in the host under a token), a transcript put into the prompt, and a JSON schema for json_schema mode.
 */
import * as v from 'valibot';
import { record, request, text } from './schema';

/** An image attached to a message: a base64 data URL of jpeg, png, webp or gif. */
export interface ImageAttachment {
  readonly name: string;
  readonly dataUrl: string;
  readonly bytes: number;
}

/** The shape of an image from the webview; the host checks its data URL again before it is stored or sent. */
export const imageAttachment: v.GenericSchema<unknown, ImageAttachment> = record({ name: text, dataUrl: text, bytes: v.number() });

/**
 * An audio file attached in the panel, as the panel knows it: its name and measures, and the token the host
 * keeps its bytes under (megabytes of base64 never travel through the webview).
 */
export interface AudioAttachment {
  /** Host-issued, random, good for one `chat/send`. */
  readonly token: string;
  readonly name: string;
  readonly bytes: number;
  /** The measured duration (the audio models' limit is in seconds). */
  readonly seconds: number;
}

/** Host → webview. */
export type AttachmentsToWebview =
  /** An image chosen through the host's file picker, already checked and encoded. */
  | { readonly type: 'composer/image'; readonly image: ImageAttachment }
  /**
   * An audio file chosen through the host's file picker (answering `audio/pick`), already checked against the
   * audio models' limits. The bytes stay in the host; the panel shows the chip and sends back the token.
   */
  | { readonly type: 'composer/audio'; readonly audio: AudioAttachment }
  /** Text to put into the composer at the caret: the transcript of `audio/transcribeIntoPrompt`. */
  | { readonly type: 'composer/insertText'; readonly text: string }
  /** A JSON schema picked from a workspace file for json_schema mode. */
  | { readonly type: 'composer/schema'; readonly name: string; readonly schema: string };

/** Webview → host. */
export const attachmentsFromWebview = [
  /** Ask the host to pick an image file; answered by `composer/image`, or a `notice` saying why not. */
  request('image/pick', {}, 'composer/image'),
  /** Ask the host to check an image the user dropped or pasted; answered by `composer/image`, or a `notice`. */
  request('image/check', { image: imageAttachment }, 'composer/image'),
  /** Ask the host to pick an audio file to attach for an audio-reasoning model; answered by `composer/audio` or a `notice`. */
  request('audio/pick', {}, 'composer/audio'),
  /**
   * Ask the host to pick an audio file and transcribe it with the last transcription model and language (asked
   * the first time); answered by `composer/insertText`, or a `notice` naming the file.
   */
  request('audio/transcribeIntoPrompt', {}, 'composer/insertText'),
  /** Ask the host to pick a JSON schema file from the workspace; answered by `composer/schema`, or a `notice`. */
  request('schema/pick', {}, 'composer/schema'),
] as const;
