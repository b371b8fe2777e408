// A loopback llama-server stand-in for the fill-in-the-middle tests: records every request with its JSON
// body, answers POST /infill with a scripted reply (SSE chunks written one by one, a whole JSON body, or an
// HTTP error), and notes when each client socket closes (a cancelled stream must close its socket).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';

/** What /infill answers. */
export type InfillReply =
  | { readonly kind: 'stream'; readonly chunks: readonly Record<string, unknown>[]; readonly gapMs?: number }
  | { readonly kind: 'json'; readonly body: Record<string, unknown> }
  | { readonly kind: 'status'; readonly status: number; readonly body?: string };

export interface InfillServer {
  readonly baseUrl: string;
  readonly requests: { readonly path: string; readonly body: Record<string, unknown> }[];
  /** How many client sockets have closed. */
  closedSockets(): number;
  /** Sets what /infill answers from now on. */
  reply(reply: InfillReply): void;
  /** How many chunks of the last stream were written before it ended or its socket closed. */
  written(): number;
  close(): Promise<void>;
}

/** A streamed llama-server chunk. */
export const chunk = (content: string, predicted: number, evaluated = 40): Record<string, unknown> => ({
  index: 0,
  content,
  stop: false,
  tokens_predicted: predicted,
  tokens_evaluated: evaluated,
});

/** The last streamed chunk, with llama-server's stop fields. */
export const last = (predicted: number, evaluated = 40): Record<string, unknown> => ({
  index: 0,
  content: '',
  stop: true,
  stop_type: 'eos',
  tokens_predicted: predicted,
  tokens_evaluated: evaluated,
  timings: { prompt_n: evaluated, predicted_n: predicted },
});

export async function startInfillServer(initial: InfillReply): Promise<InfillServer> {
  let current = initial;
  let written = 0;
  let closed = 0;
  const requests: InfillServer['requests'] = [];
  const sockets = new Set<Socket>();
  const answer = async (path: string, res: ServerResponse): Promise<void> => {
    if (path !== '/infill') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
      return;
    }
    const reply = current;
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body ?? JSON.stringify({ error: { code: reply.status, message: 'Infill is not supported by this model', type: 'not_supported_error' } }));
      return;
    }
    if (reply.kind === 'json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    written = 0;
    for (const data of reply.chunks) {
      if (res.destroyed || res.socket?.destroyed === true) return;
      res.write(`data: ${JSON.stringify(data)}\n\n`);
      written++;
      await new Promise((resolve) => setTimeout(resolve, reply.gapMs ?? 5));
    }
    res.end();
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      requests.push({ path: req.url ?? '', body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) });
      void answer(req.url ?? '', res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    closedSockets: () => closed,
    reply: (reply) => {
      current = reply;
    },
    written: () => written,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
