// What the team index tests on PostgreSQL share: the embedding model's name, a module's text, and an embedder
// that records what it was asked to embed.
import { embedText } from '../../../support/emulator/embeddings';

export const MODEL = 'test-embedding-64';

/** A small TypeScript module whose function is `name`, distinct for each `i`. */
export const moduleText = (i: number, name = `compute${i}`): string =>
  `/** Module ${i}: ${name} of the ledger. */\nexport function ${name}(x: number): number {\n  return x * ${i} + ${i * 7};\n}\n`;

/** Embeds with the emulator's 64-d vectors, appending each text it is asked for to `embedded`. */
export function recordingEmbed(embedded: string[]): (texts: readonly string[]) => Promise<Float32Array[]> {
  return (texts) => {
    embedded.push(...texts);
    return Promise.resolve(texts.map((t) => Float32Array.from(embedText(t, 64))));
  };
}
