// Which path a completion takes: fill-in-the-middle (the raw text around the cursor to POST /infill) when
// the completion model's server offers it, else the chat prompt. Never a guess that sends FIM to a chat
// endpoint. The rule, in order:
//   1. `cadenza.models.overrides` wins: a model whose override lists capabilities takes FIM exactly when
//      they include `fim`, and nothing is probed (so an override without `fim` keeps a server from ever
//      getting /infill).
//   2. The hosted service is chat-only (its spec has no /infill and its chat models no FIM tokens): a
//      completion server on sambanova.ai takes the chat path and is never probed.
//   3. Any other server is probed once per server address and model, and the answer is remembered for the
//      session: FIM when /infill answers, chat when it refuses (404, 400, 501, any other 4xx but 401, 403,
//      408, 429). A failure that says nothing about the operation (network, time-out, the key, a busy or
//      loading server, a cancel) takes the chat path this time and is asked again next time. A changed
//      address or model is a new key, so it is probed anew.
//   4. An /infill request that is refused after the probe said yes (the server was restarted with another
//      model) moves that server and model to chat for the rest of the session.
import { ApiError } from '../api/errors';
import { refusesInfill } from '../api/infill';
import type { InfillProbe } from '../api/types';
import type { Capability } from '../../shared/views';

/** The two ways to ask for a completion. */
export type CompletionPath = 'fim' | 'chat';

/** What the router needs of the client. */
export interface RoutePort {
  /** The address completions go to (the chat endpoint's server). */
  completionServer(): string;
  /** What the overrides say of a capability; undefined when they list none for the model. */
  statedCapability(model: string, capability: Capability): boolean | undefined;
  probeInfill(model: string, signal?: AbortSignal): Promise<InfillProbe>;
}

/** True for the hosted service's addresses (chat-only: never sent /infill unless an override says so). */
export function isHostedService(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.toLowerCase();
    return host === 'sambanova.ai' || host.endsWith('.sambanova.ai');
  } catch {
    return false;
  }
}

/** Remembers per server and model which path works, for the session (one per CompletionService). */
export class CompletionRouter {
  private readonly known = new Map<string, CompletionPath>();
  private readonly probing = new Map<string, Promise<InfillProbe>>();

  /**
   * The path for `model` now. A probe is shared by concurrent callers and runs to its end even when the
   * caller that started it is cancelled (its answer is still worth remembering); a cancelled caller gets
   * `chat` at once and is expected to check its signal.
   */
  async pathFor(port: RoutePort, model: string, signal?: AbortSignal): Promise<CompletionPath> {
    const stated = port.statedCapability(model, 'fim');
    if (stated !== undefined) return stated ? 'fim' : 'chat';
    const server = port.completionServer();
    if (isHostedService(server)) return 'chat';
    const key = keyOf(server, model);
    const known = this.known.get(key);
    if (known !== undefined) return known;
    let probe = this.probing.get(key);
    if (probe === undefined) {
      probe = port
        .probeInfill(model)
        .catch((): InfillProbe => 'unknown')
        .then((answer) => {
          this.probing.delete(key);
          if (answer !== 'unknown') this.known.set(key, answer);
          return answer;
        });
      this.probing.set(key, probe);
    }
    const answer = await untilAborted(probe, signal);
    return answer === 'fim' ? 'fim' : 'chat';
  }

  /**
   * Told how an /infill request failed: a refusal (infill.ts `refusesInfill`) means the server
   * no longer fills in the middle for `model`, so it takes the chat path from now on. Overrides still win.
   */
  noteInfillFailure(port: RoutePort, model: string, error: unknown): void {
    if (!refusesInfill(ApiError.is(error) ? error.status : undefined)) return;
    this.known.set(keyOf(port.completionServer(), model), 'chat');
  }
}

function keyOf(server: string, model: string): string {
  return `${server}\n${model}`;
}

/** `work`'s answer, or `unknown` as soon as `signal` aborts (the work itself goes on). */
function untilAborted(work: Promise<InfillProbe>, signal: AbortSignal | undefined): Promise<InfillProbe> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.resolve('unknown');
  return new Promise<InfillProbe>((resolve) => {
    const onAbort = (): void => resolve('unknown');
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then((answer) => {
      signal.removeEventListener('abort', onAbort);
      resolve(answer);
    });
  });
}
