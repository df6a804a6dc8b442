import { randomUUID } from 'node:crypto';

/** A concrete URL for a route pattern: every `:param` becomes a valid-looking id (a UUID). */
export function concreteUrl(pattern: string): string {
  return pattern.replace(/:[A-Za-z0-9_]+/gu, () => randomUUID()).replace(/\*/gu, 'x');
}
