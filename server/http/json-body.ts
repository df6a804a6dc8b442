/**
 * JSON request bodies. Fastify's own parser (prototype-poisoning checks kept) plus one rule no
 * schema states: PostgreSQL text cannot hold U+0000, so a string carrying it would fail deep in
 * a query as a 500. It is refused here, at the edge, as a 400 naming the field.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/** The dotted path of the first string (or key) holding U+0000, or null when there is none. */
export function findNulCharacter(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findNulCharacter(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '\\u0000')].join('.');
      const found = findNulCharacter(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

export const NUL_MESSAGE = 'Text must not contain the NUL character (\\u0000)';

/** Throws a 400 when a parsed body carries U+0000 anywhere. */
export function assertNoNulCharacter(body: unknown): void {
  const field = findNulCharacter(body);
  if (field !== null) throw new AppError('VALIDATION_ERROR', NUL_MESSAGE, { fields: { [field]: NUL_MESSAGE } });
}

/**
 * JSON can only carry U+0000 as the escape `\u0000`, so bodies without that text skip the walk.
 * (`\\u0000`, an escaped backslash, also matches: the walk then finds nothing, which is right.)
 */
export function mightCarryNul(text: string): boolean {
  return text.includes('\\u0000');
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const json = typeof text === 'string' ? text : text.toString('utf8');
    // Fastify's default parser is synchronous (it calls back before returning).
    void parse(request, json, (error, body) => {
      if (error) return done(error, undefined);
      if (mightCarryNul(json)) {
        try {
          assertNoNulCharacter(body);
        } catch (nul) {
          return done(nul as Error, undefined);
        }
      }
      return done(null, body);
    });
  });
}
