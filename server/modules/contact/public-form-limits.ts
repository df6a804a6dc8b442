/**
 * Per-IP limits of the public forms (the contact form, the newsletter box, the onboarding form),
 * counted in the database so that they hold across instances (the auth limits are per instance, in
 * memory). The counter's key is the form and an HMAC-SHA256 of the IP (an IPv6 address's /64)
 * under the installation's secret: the IP itself is never stored, and the key cannot be reversed
 * by hashing the 2^32 IPv4 addresses without that secret. A window is fixed from its first request
 * (docs/contact.md).
 */
import { isIPv6 } from 'node:net';
import { AppError } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import { hmacSha256Hex } from '../../lib/crypto';
import type { ContactRepository } from './contact.repository';

export type PublicForm = 'contact' | 'newsletter' | 'onboarding';

export interface FormLimit {
  max: number;
  windowMs: number;
  /** The 429's message, given the minutes left. */
  message: (minutes: number) => string;
}

/** 5 submissions per 10 minutes per IP (onboarding: per hour), each form on its own. */
export const PUBLIC_FORM_LIMITS: Record<PublicForm, FormLimit> = {
  contact: {
    max: 5,
    windowMs: 10 * 60_000,
    message: (minutes) => `Too many messages from your network. Please try again in ${minutes} minute(s).`,
  },
  newsletter: {
    max: 5,
    windowMs: 10 * 60_000,
    message: (minutes) => `Too many subscription requests from your network. Please try again in ${minutes} minute(s).`,
  },
  // The onboarding form of /client-signup (the onboarding module): a business asks once, rarely twice.
  onboarding: {
    max: 5,
    windowMs: 60 * 60_000,
    message: (minutes) => `Too many requests from your network. Please try again in ${minutes} minute(s).`,
  },
};

const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * What one limit counts: an IPv4 address (an IPv4-mapped IPv6 one as IPv4), or an IPv6 address's
 * /64 — one customer's network, in which anyone may pick a new address for every request.
 */
export function limitedNetwork(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/iu.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/u, ''))
    .join(':')}::/64`;
}

export class PublicFormLimits {
  #lastPrune = 0;

  constructor(private readonly deps: { repository: ContactRepository; clock: Clock; hashKey: string }) {}

  /** Counts one submission from `ip`; throws RATE_LIMITED (with Retry-After) past the form's limit. */
  async hit(form: PublicForm, ip: string): Promise<void> {
    const limit = PUBLIC_FORM_LIMITS[form];
    const now = this.deps.clock.now();
    const key = `${form}:${hmacSha256Hex(this.deps.hashKey, `public-form-ip:${limitedNetwork(ip)}`)}`;
    const window = await this.deps.repository.hitRateLimit(key, now, new Date(now.getTime() - limit.windowMs));
    await this.#pruneNowAndThen(now);
    if (window.hits <= limit.max) return;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.windowStartedAt.getTime() + limit.windowMs - now.getTime()) / 1000));
    throw new AppError('RATE_LIMITED', limit.message(Math.ceil(retryAfterSeconds / 60)), { retryAfterSeconds });
  }

  /** Counters whose window is over limit nothing: they go, at most once an hour per instance. */
  async #pruneNowAndThen(now: Date): Promise<void> {
    if (now.getTime() - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now.getTime();
    const longest = Math.max(...Object.values(PUBLIC_FORM_LIMITS).map((l) => l.windowMs));
    await this.deps.repository.pruneRateLimits(new Date(now.getTime() - longest));
  }
}
