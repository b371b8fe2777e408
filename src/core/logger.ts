/**
 * The logging port core depends on. The host satisfies it with a VS Code `LogOutputChannel`;
 * tests use `silentLogger` or a collecting logger. Never pass API keys or Authorization headers.
 */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

/** A logger that drops everything: the default where no logger is given. */
export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
