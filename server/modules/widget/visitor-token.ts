/**
 * Website-chat visitors carry a token instead of a session: `<visitorId>.<hmac>` where the HMAC
 * (keyed by the auth secret) binds the visitor id to one widget. Nothing is stored per visitor
 * until they write; a token for another widget, or a forged one, is refused.
 */
import { hmacSha256Hex, randomToken, safeEqual } from '../../lib/crypto';

export class VisitorTokens {
  constructor(private readonly secret: string) {}

  issue(widgetId: string, visitorId: string = `v_${randomToken(16)}`): { visitorId: string; visitorToken: string } {
    return { visitorId, visitorToken: `${visitorId}.${this.#mac(widgetId, visitorId)}` };
  }

  /** The visitor id, when the token is valid for this widget. */
  verify(widgetId: string, token: string): string | null {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return null;
    const visitorId = token.slice(0, dot);
    if (!/^v_[A-Za-z0-9_-]{10,40}$/u.test(visitorId)) return null;
    return safeEqual(token.slice(dot + 1), this.#mac(widgetId, visitorId)) ? visitorId : null;
  }

  /** Tokens name their widget implicitly; the realtime socket gets `<widgetId>:<token>`. */
  #mac(widgetId: string, visitorId: string): string {
    return hmacSha256Hex(this.secret, `parley-visitor:${widgetId}:${visitorId}`).slice(0, 43);
  }
}
