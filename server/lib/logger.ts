import type { LoggerOptions } from 'pino';

/**
 * Log options shared by the server and the CLI. Secrets never reach the log: headers that carry
 * credentials, fields named like secrets, and token query parameters (verification and reset
 * links) are redacted wherever they appear.
 */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'req.headers["x-hub-signature-256"]',
  'req.headers["x-parley-signature"]',
  'req.headers["x-parley-control-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.secret',
  '*.accessToken',
  '*.appSecret',
  '*.clientSecret',
  '*.signingSecret',
];

const SECRET_QUERY = /([?&](?:token|code|state|hub\.verify_token|access_token)=)[^&#]*/giu;
/**
 * Paths with a secret segment: an AI Summary share link's token (page and API), an invitation
 * link's token (the page `/invite/…` and `/api/v1/public/invitations/…`).
 */
const SECRET_PATH = /^((?:\/api\/v1)?\/shared\/summary\/|\/invite\/|\/api\/v1\/public\/invitations\/)[^/?#]+/iu;

/** `?token=abc&x=1` → `?token=[redacted]&x=1`; `/shared/summary/abc` → `/shared/summary/[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]').replace(SECRET_PATH, '$1[redacted]');
}

interface RequestLike {
  method?: string;
  url?: string;
  ip?: string;
  headers?: Record<string, unknown>;
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req(req: RequestLike) {
        return {
          method: req.method,
          url: req.url === undefined ? undefined : redactUrl(req.url),
          remoteAddress: req.ip,
          userAgent: req.headers?.['user-agent'],
        };
      },
      res(res: { statusCode?: number }) {
        return { statusCode: res.statusCode };
      },
    },
  };
}

type LogFn = (...args: unknown[]) => void;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** What the lazy logger needs of its parent (a pino logger; Fastify's logger type). */
export interface ParentLogger<L> {
  level: string;
  child(bindings: never, options?: never): L;
}

/**
 * A request's logger, made only when something is logged at an enabled level: Fastify creates a
 * child logger (with its bindings and redaction) for every request, a measurable share of a
 * request that logs nothing — a webhook delivery at Meta's rates, say. Calls at disabled levels
 * are no-ops, as they are on pino's own loggers.
 */
class LazyChildLogger<L extends ParentLogger<L>> {
  readonly #parent: L;
  readonly #bindings: object;
  readonly #options: object | undefined;
  readonly #enabled: (level: Level) => boolean;
  #real: L | undefined;

  constructor(parent: L, bindings: object, options: object | undefined) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
    const isEnabled = (parent as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
    this.#enabled = isEnabled ? (level) => isEnabled.call(parent, level) : () => true;
  }

  #child(): L {
    return (this.#real ??= (this.#parent.child as (bindings: object, options?: object) => L)(this.#bindings, this.#options));
  }

  #log(level: Level, args: unknown[]): void {
    if (!this.#real && !this.#enabled(level)) return;
    (this.#child() as unknown as Record<Level, LogFn>)[level](...args);
  }

  get level(): string {
    return this.#real ? this.#real.level : this.#parent.level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  isLevelEnabled(level: string): boolean {
    const own = (this.#real as { isLevelEnabled?: (level: string) => boolean } | undefined)?.isLevelEnabled;
    return own ? own.call(this.#real, level) : this.#enabled(level as Level);
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: never, options?: never): L {
    return this.#child().child(bindings, options);
  }
}

export function lazyChildLogger<L extends ParentLogger<L>>(parent: L, bindings: object, options?: object): L {
  // With its own options (a route's log level, say) the child is made at once, as Fastify would.
  if (options && Object.keys(options).length > 0) return (parent.child as (bindings: object, options?: object) => L)(bindings, options);
  return new LazyChildLogger(parent, bindings, undefined) as unknown as L;
}
