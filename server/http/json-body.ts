/**
 * JSON request bodies. Fastify's own parser (prototype-poisoning checks kept) plus the rules no
 * schema states, applied at the edge in one iterative pass over the parsed value (`cleanJson`):
 *
 * - PostgreSQL text cannot hold U+0000, so a string carrying it would fail deep in a query as a
 *   500: it is refused as a 400 naming the field.
 * - A lone surrogate (`"\ud800"`, valid JSON, not valid Unicode) cannot be stored either: as
 *   jsonb PostgreSQL rejects it, as text it would be mangled on the way. It becomes U+FFFD (the
 *   replacement character) and the message is stored — refusing it would lose a customer's words.
 * - Nesting deeper than `MAX_JSON_DEPTH` is refused (400): no body of the API needs more, and
 *   recursive code further on (JSON.stringify, PostgreSQL's jsonb) would overflow on thousands
 *   of levels. The walk itself keeps its own stack, so it cannot overflow.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/** Levels of arrays and objects a request body may nest (docs/DECISIONS.md). */
export const MAX_JSON_DEPTH = 64;

export const NUL_MESSAGE = 'Text must not contain the NUL character (\\u0000)';
export const DEPTH_MESSAGE = `JSON is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

export interface JsonProblem {
  kind: 'nul' | 'depth';
  /** Dotted path of the string, key or container at fault ('body' for the whole body). */
  field: string;
}

export interface CleanOptions {
  /** 'refuse': report the first U+0000 as a problem; 'strip': drop every U+0000 from strings and keys. */
  nul: 'refuse' | 'strip';
  /** Containers nested deeper than this are a problem (default `MAX_JSON_DEPTH`; Infinity: no limit). */
  maxDepth?: number;
}

interface Container {
  value: Record<string, unknown> | unknown[];
  depth: number;
  parent: Container | null;
  key: string;
}

function pathOf(container: Container | null, key?: string): string {
  const parts: string[] = key === undefined ? [] : [key];
  for (let c = container; c !== null && c.parent !== null; c = c.parent) parts.push(c.key);
  return parts.reverse().join('.') || 'body';
}

const printable = (key: string) => key.replaceAll('\u0000', '\\u0000');

/** The string with lone surrogates replaced by U+FFFD and (when stripping) U+0000 removed, or null when it must be refused. */
function cleanString(text: string, nul: CleanOptions['nul']): string | null {
  const hasNul = text.includes('\u0000');
  if (!hasNul && text.isWellFormed()) return text;
  const result = text.toWellFormed();
  if (!hasNul) return result;
  return nul === 'refuse' ? null : result.replaceAll('\u0000', '');
}

/**
 * Cleans a parsed JSON value in place (lone surrogates → U+FFFD, U+0000 refused or stripped) and
 * checks its depth, without recursion. Returns the cleaned value (a new string when the value is
 * a string) or the first problem found.
 */
export function cleanJson(value: unknown, options: CleanOptions): { value: unknown; problem: JsonProblem | null } {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (typeof value === 'string') {
    const cleaned = cleanString(value, options.nul);
    return cleaned === null ? { value, problem: { kind: 'nul', field: 'body' } } : { value: cleaned, problem: null };
  }
  if (value === null || typeof value !== 'object') return { value, problem: null };
  const stack: Container[] = [{ value: value as Container['value'], depth: 1, parent: null, key: '' }];
  const nested = (item: unknown, container: Container, key: string): void => {
    stack.push({ value: item as Container['value'], depth: container.depth + 1, parent: container, key: printable(key) });
  };
  // Written out without a callback per item: Meta's deliveries (every non-ASCII character escaped) come through here.
  while (stack.length > 0) {
    const container = stack.pop()!;
    if (container.depth > maxDepth) return { value, problem: { kind: 'depth', field: pathOf(container) } };
    if (Array.isArray(container.value)) {
      const array = container.value;
      for (let i = 0; i < array.length; i += 1) {
        const item = array[i];
        if (typeof item === 'string') {
          const cleaned = cleanString(item, options.nul);
          if (cleaned === null) return { value, problem: { kind: 'nul', field: pathOf(container, String(i)) } };
          if (cleaned !== item) array[i] = cleaned;
        } else if (item !== null && typeof item === 'object') {
          nested(item, container, String(i));
        }
      }
      continue;
    }
    const object = container.value;
    const keys = Object.keys(object);
    let renamed = false;
    for (const key of keys) {
      const cleanedKey = cleanString(key, options.nul);
      if (cleanedKey === null) return { value, problem: { kind: 'nul', field: pathOf(container, printable(key)) } };
      if (cleanedKey !== key) renamed = true;
      const item = object[key];
      if (typeof item === 'string') {
        const cleaned = cleanString(item, options.nul);
        if (cleaned === null) return { value, problem: { kind: 'nul', field: pathOf(container, printable(key)) } };
        if (cleaned !== item) object[key] = cleaned;
      } else if (item !== null && typeof item === 'object') {
        nested(item, container, key);
      }
    }
    if (renamed) {
      // Rebuilt in the same order; defineProperty, so a key such as "__proto__" stays a plain key.
      const entries = keys.map((key) => [cleanString(key, options.nul) ?? key, object[key]] as const);
      for (const key of keys) delete object[key];
      for (const [key, item] of entries) Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
  }
  return { value, problem: null };
}

/** A parsed request body, cleaned (see the file comment); throws a 400 naming the field for U+0000 or too deep a nesting. */
export function cleanJsonBody<T>(body: T): T {
  const { value, problem } = cleanJson(body, { nul: 'refuse' });
  if (problem) {
    const message = problem.kind === 'nul' ? NUL_MESSAGE : DEPTH_MESSAGE;
    throw new AppError('VALIDATION_ERROR', message, { fields: { [problem.field]: message } });
  }
  return value as T;
}

/**
 * Whether JSON text may carry U+0000 or a lone surrogate: both can only come as `\u` escapes (raw
 * UTF-8 cannot encode a lone surrogate; Buffer decoding turns such bytes into U+FFFD, and JSON
 * forbids a raw U+0000 in a string). Escaped pairs (`\ud83d\ude00`, as Meta writes every emoji)
 * do not count. Text without either needs no string cleaning; a false positive (an escaped
 * backslash before `u0000`) only costs a walk that finds nothing.
 */
export function mightNeedCleaning(text: string): boolean {
  return LONE_OR_NUL_ESCAPE.test(text);
}

const LONE_OR_NUL_ESCAPE = /\\u0000|\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F]/u;

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const json = typeof text === 'string' ? text : text.toString('utf8');
    // Fastify's default parser is synchronous (it calls back before returning).
    void parse(request, json, (error, body) => {
      if (error) return done(error, undefined);
      try {
        return done(null, cleanJsonBody(body));
      } catch (problem) {
        return done(problem as Error, undefined);
      }
    });
  });
}
