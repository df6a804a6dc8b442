import { Writable } from 'node:stream';
import { pino } from 'pino';

/** A pino logger at `info` whose output the test can read (`output()`: every line so far). */
export function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), output: () => lines.join('') };
}
