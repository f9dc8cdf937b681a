import { Writable } from "node:stream";
import pino, { type Logger } from "pino";

/** A pino logger at debug level that keeps every line in memory (`lines`), for log assertions. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}
