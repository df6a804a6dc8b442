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

/** `?token=abc&x=1` → `?token=[redacted]&x=1`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
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
