// What the server hands an operation handler, and what a handler hands back. Handlers never touch
// the socket: the server writes replies and applies faults, so every operation gets both for free.
import { type IncomingHttpHeaders } from 'node:http';
import { type ScriptedChat } from './emulator';
import { type EmulatorModel } from './models';
import { type MultipartForm } from './multipart';
import { type EventSource } from './sse';

/** One request, parsed, with access to the emulator's scripting queues. */
export interface HandlerContext {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined for multipart or an empty body). */
  readonly json: unknown;
  /** The parsed multipart form, for audio uploads. */
  readonly form: MultipartForm | undefined;
  readonly models: readonly EmulatorModel[];
  /** When the request arrived, ms since epoch. */
  readonly startMs: number;
  /** How long reasoning models think when no script says otherwise. */
  readonly thinkMs: number;
  /** The script for this answer: the x-emulator-script header, else the next queued scriptChat. */
  nextScript(): ScriptedChat | undefined;
  /** The next queued scriptTranscript text. */
  nextTranscript(): string | undefined;
}

/** A handler's answer. */
export type Reply = { kind: 'json'; status?: number; body: unknown } | { kind: 'text'; status?: number; body: string } | { kind: 'sse'; events: EventSource };
