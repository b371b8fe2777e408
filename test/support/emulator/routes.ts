// The route table: which path goes to which handler (every one needs the API key).
import { handleAudioFile } from './audio';
import { handleChat } from './chat';
import { type HandlerContext, type Reply } from './context';
import { handleEmbeddings } from './embeddings';
import { simpleError } from './errors';
import { findModel, toWireModel } from './models';

/** One matched route. Every route needs the key: the service applies bearer auth to every operation, the model listing included (docs/service.md#addresses-and-authentication). */
export interface Route {
  handle(ctx: HandlerContext): Reply;
}

const MODEL_PATH = /^\/v1\/models\/(.+)$/;

/** Finds the route for a method and path; undefined means 404 "Not found". */
export function matchRoute(method: string, path: string): Route | undefined {
  if (method === 'POST') {
    switch (path) {
      case '/v1/chat/completions':
        return { handle: (ctx) => handleChat(ctx, 'chat') };
      case '/v1/audio/reasoning':
        return { handle: (ctx) => handleChat(ctx, 'audioReasoning') };
      case '/v1/audio/transcriptions':
        return { handle: (ctx) => handleAudioFile(ctx, 'transcription') };
      case '/v1/audio/translations':
        return { handle: (ctx) => handleAudioFile(ctx, 'translation') };
      case '/v1/embeddings':
        return { handle: handleEmbeddings };
      default:
        return undefined;
    }
  }
  if (method === 'GET') {
    if (path === '/v1/models') {
      return { handle: (ctx) => ({ kind: 'json', body: { object: 'list', data: ctx.models.map(toWireModel) } }) };
    }
    const match = MODEL_PATH.exec(path);
    if (match?.[1] !== undefined) {
      const id = safeDecode(match[1]);
      return {
        handle: (ctx) => {
          const model = findModel(ctx.models, id);
          if (model === undefined) throw simpleError(404, 'Model not found');
          return { kind: 'json', body: toWireModel(model) };
        },
      };
    }
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed escape cannot name a model; the raw text then simply finds nothing.
    return text;
  }
}
