/**
 * Authentication with the spec's rules (part 1 §2.6–2.9, §4, §5, §8) around better-auth:
 * the lockout ledger, the exact error codes and texts, no account discovery, single-use hashed
 * verification links, and e-mail through the outbox/SMTP job.
 */
import { randomUUID } from 'node:crypto';
import { isAPIError } from 'better-auth/api';
import type { Logger } from 'pino';
import { AUTH_MESSAGES, type SignInResponse } from '../../../common/api/auth';
import type { SecuritySettings } from '../../../common/api/security';
import type { CurrentUser } from '../../../common/api/users';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { JobPayload } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { randomToken } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { accountExistsEmail, type EmailService, verificationEmail } from '../email';
import type { SecurityEventsService } from '../security';
import { toCurrentUser, type UsersService, type UserWithRole } from '../users';
import type { SessionUser } from '../../http/access';
import { accountMailJob } from './auth.job';
import { type BetterAuth, GOOGLE_PROVIDER_ID, SESSION_RENEW_AFTER_SECONDS, TOKEN_TTL_SECONDS } from './better-auth';
import { EMAIL_VERIFICATION_PREFIX } from './better-auth.plugin';
import { LOCKOUT, type LockoutState, minutesLeft } from './lockout';
import type { SessionRow, SessionsRepository, UserSessionFilter, UserSessionRow } from './sessions.repository';
import type { LockoutRepository } from './lockout.repository';

const RESET_PREFIX = 'reset-password:';

/** Sign-in refused because the user's client is deactivated (docs/client-dashboard.md). */
export const CLIENT_DEACTIVATED_MESSAGE = "Your business's Parley account is deactivated, so you cannot sign in. Please contact your administrator.";

/** What a request tells the auth layer: its headers (cookies) and the caller's address. */
export interface RequestMeta {
  headers: Headers;
  ip: string;
  userAgent: string | null;
}

/** A result plus the Set-Cookie headers better-auth produced for it. */
export interface WithCookies<T> {
  result: T;
  cookies: string[];
}

export interface AuthServiceDeps {
  config: Config;
  auth: BetterAuth;
  users: UsersService;
  lockout: LockoutRepository;
  sessions: SessionsRepository;
  securityEvents: SecurityEventsService;
  emails: EmailService;
  queue: JobQueue;
  /** The hashing better-auth uses (password-hash.ts), for sign-up's hash in the request. */
  passwordHashing: { hash(password: string): Promise<string> };
  clock: Clock;
  logger: Logger;
  /** Admin Settings → Security: the session lifetime and the two-factor requirement (the security module's). */
  securitySettings: { get(): Promise<SecuritySettings> };
}

/** Whether `settings` keep this account from using the app until it has set up two-factor authentication. */
export function mustSetUpTwoFactor(settings: SecuritySettings, user: Pick<UserWithRole, 'role' | 'twoFactorEnabled'>): boolean {
  return settings.requireTwoFactorForStaff && (user.role === 'admin' || user.role === 'manager') && !user.twoFactorEnabled;
}

/**
 * A session in use is renewed to a full lifetime again once it is this old: a day, or a quarter of
 * a shorter lifetime (so a one-hour session is renewed every 15 minutes of use).
 */
export function renewAfterMs(lifetimeMs: number): number {
  return Math.min(SESSION_RENEW_AFTER_SECONDS * 1000, lifetimeMs / 4);
}

function errorCode(error: unknown): string | undefined {
  if (!isAPIError(error)) return undefined;
  const body = error.body as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  // ---- A user's own sessions (the profile page) ------------------------------------------------

  /** Live sessions, most recently active first. */
  async findSessions(userId: string): Promise<SessionRow[]> {
    return this.deps.sessions.findSessions(userId);
  }

  /** Signs one of the user's sessions out; false when they have no such session. */
  async deleteSession(userId: string, sessionId: string): Promise<boolean> {
    return this.deps.sessions.deleteSession(userId, sessionId);
  }

  /** Signs out every user of a client (its deactivation), in `db` when it is a transaction; how many sessions. */
  async revokeClientSessions(clientId: string, db?: Db): Promise<number> {
    return this.deps.sessions.deleteClientSessions(clientId, db);
  }

  /** Signs out every session of the user but one; how many. */
  async deleteOtherSessions(userId: string, keepSessionId: string): Promise<number> {
    return this.deps.sessions.deleteOtherSessions(userId, keepSessionId);
  }

  // ---- Every user's sessions (Admin Settings → Security) ---------------------------------------

  /** Every user's live sessions, most recently active first. */
  async findUserSessions(filter: UserSessionFilter): Promise<UserSessionRow[]> {
    return this.deps.sessions.findUserSessions(filter);
  }

  /**
   * Signs any user's session out (an administrator's revocation): the row goes, and with no cookie
   * cache the next request with it is signed out. Whose it was, or undefined for no such session.
   */
  async revokeUserSession(sessionId: string, db?: Db): Promise<{ userId: string; email: string | null } | undefined> {
    const deleted = await this.deps.sessions.deleteSessionById(sessionId, db);
    if (!deleted) return undefined;
    const user = await this.deps.users.findUserById(deleted.userId, db);
    return { userId: deleted.userId, email: user?.email ?? null };
  }

  /** Every session that would outlive `latest` ends then instead (a shorter session lifetime). */
  async shortenSessions(latest: Date, db?: Db): Promise<number> {
    return this.deps.sessions.shortenSessions(latest, db);
  }

  get googleEnabled(): boolean {
    return this.deps.config.google !== undefined;
  }

  /** The signed-in user of a request, or null; renews the session cookie when due. */
  async resolveSession(headers: Headers): Promise<WithCookies<SessionUser | null>> {
    const cookie = headers.get('cookie');
    if (!cookie?.includes('session_token')) return { result: null, cookies: [] };
    const { headers: out, response } = await this.deps.auth.api.getSession({ headers, returnHeaders: true });
    const cookies = out.getSetCookie();
    if (!response) return { result: null, cookies };
    const user = await this.deps.users.findUserById(response.user.id);
    // A disabled account, or one whose client was deactivated, has no session (its sessions were revoked).
    if (!user || user.disabledAt || user.clientInactive) return { result: null, cookies };
    const settings = await this.deps.securitySettings.get();
    await this.#renewIfDue(response.session, settings.sessionLifetimeHours);
    return {
      result: {
        id: user.id,
        email: user.email,
        name: user.fullName,
        role: user.role,
        clientId: user.clientId,
        sessionId: response.session.id,
        emailVerified: user.emailVerified,
        twoFactorSetupRequired: mustSetUpTwoFactor(settings, user),
      },
      cookies,
    };
  }

  /**
   * Sessions last the configured lifetime without use and are renewed while in use (better-auth's
   * own refresh is off: its lifetime is fixed at start). A session with more time left than the
   * lifetime allows (the lifetime was shortened) is brought down to it. Times are the system's, as
   * better-auth's expiry check is.
   */
  async #renewIfDue(session: { id: string; expiresAt: Date }, lifetimeHours: number): Promise<void> {
    const lifetimeMs = lifetimeHours * 3_600_000;
    const now = Date.now();
    const left = new Date(session.expiresAt).getTime() - now;
    if (left > lifetimeMs || left < lifetimeMs - renewAfterMs(lifetimeMs)) {
      await this.deps.sessions.renewSession(session.id, new Date(now + lifetimeMs));
    }
  }

  /** The current user as the session and sign-in answers give it: with whether two-factor setup must come first. */
  async #currentUserWithRequirement(user: UserWithRole): Promise<CurrentUser> {
    return { ...toCurrentUser(user), twoFactorSetupRequired: mustSetUpTwoFactor(await this.deps.securitySettings.get(), user) };
  }

  /**
   * The same work for a new address and a known one, so neither the answer nor its timing tells
   * them apart (no account discovery): the password is hashed and one job is enqueued; the job
   * creates the account and sends the verification link, or tells the owner by e-mail.
   */
  async signUp(input: { name: string; email: string; password: string }): Promise<void> {
    const passwordHash = await this.deps.passwordHashing.hash(input.password);
    await this.deps.queue.enqueue(accountMailJob, { kind: 'sign-up', userId: randomUUID(), name: input.name, email: input.email, passwordHash });
  }

  /** The account-mail job: finishes a sign-up, sends a reset link or a new verification link (auth.job.ts). */
  async runAccountMail(payload: JobPayload<typeof accountMailJob>): Promise<void> {
    switch (payload.kind) {
      case 'sign-up':
        await this.#completeSignUp(payload);
        return;
      case 'password-reset':
        // Sends the link through `sendResetPassword` (app.ts) when the address has an account.
        await this.deps.auth.api.requestPasswordReset({ body: { email: payload.email, redirectTo: '/reset-password' } });
        return;
      case 'resend-verification': {
        const user = await this.deps.users.findUserByEmail(payload.email);
        if (user && !user.emailVerified) await this.sendVerificationEmail({ id: user.id, email: user.email, name: user.fullName });
        return;
      }
    }
  }

  async #completeSignUp(request: { userId: string; name: string; email: string; passwordHash: string }): Promise<void> {
    const { userId, name, email, passwordHash } = request;
    const created = await this.deps.users.createPasswordUser({ id: userId, email, name, passwordHash });
    if (created) {
      await this.sendVerificationEmail({ id: userId, email, name });
      return;
    }
    const existing = await this.deps.users.findUserByEmail(email);
    if (!existing) return; // the account this job created earlier has been deleted since
    if (existing.id === userId) {
      // A retry of this job after it created the account: the link may not have been sent yet.
      if (!existing.emailVerified) await this.sendVerificationEmail({ id: userId, email, name });
      return;
    }
    // The address already has an account: same answer as for a new one; the owner learns by e-mail.
    await this.#sendAccountExists(existing.email, existing.fullName);
  }

  async signIn(input: { email: string; password: string }, meta: RequestMeta): Promise<WithCookies<SignInResponse>> {
    const { email } = input;
    const now = this.deps.clock.now();
    // One of the window's 5 attempts is taken (atomically, in the database) before the password is
    // looked at, so no burst of parallel requests gets more than 5 passwords checked.
    const reservation = await this.deps.lockout.reserve(email, now);
    await this.#escalateIfNeeded(reservation.escalated, reservation.state.severity, email, meta, now);
    // Refused without looking at the password (a flagged attempt).
    if (!reservation.granted) throw this.#lockedError(reservation.minutesLeft);

    try {
      const { headers, response } = await this.deps.auth.api.signInEmail({
        body: { email, password: input.password, rememberMe: true },
        headers: meta.headers,
        returnHeaders: true,
      });
      await this.deps.lockout.clearUnlessLocked(email, now);
      const cookies = headers.getSetCookie();
      if ('twoFactorRedirect' in response && response.twoFactorRedirect) {
        return { result: { twoFactorRequired: true }, cookies };
      }
      const user = await this.deps.users.getUserById(response.user.id);
      return { result: { twoFactorRequired: false, user: await this.#currentUserWithRequirement(user) }, cookies };
    } catch (error) {
      const code = errorCode(error);
      if (code === 'INVALID_EMAIL_OR_PASSWORD') {
        // Checked now, not when the request started: another request may have locked meanwhile.
        const checkedAt = this.deps.clock.now();
        const outcome = await this.deps.lockout.confirmFailure(email, checkedAt);
        if (outcome.lockedNow) await this.#recordLocked(email, outcome.state, meta, checkedAt);
        if (outcome.remaining === 0) throw this.#lockedError(minutesLeft(outcome.state, checkedAt));
        throw new AppError('AUTH_ERROR', AUTH_MESSAGES.invalidCredentials(outcome.remaining));
      }
      // The session hook (better-auth.ts) refuses disabled accounts and those of a deactivated
      // client; only the latter is told why (the password was right: it is their business's state).
      if (code === 'FAILED_TO_CREATE_SESSION') {
        const user = await this.deps.users.findUserByEmail(email);
        if (user && !user.disabledAt && user.clientInactive) {
          throw new AppError('AUTH_ERROR', CLIENT_DEACTIVATED_MESSAGE, { details: { reason: 'client_inactive' } });
        }
        throw new AppError('AUTH_ERROR', AUTH_MESSAGES.signInFailed);
      }
      if (code === 'EMAIL_NOT_VERIFIED') {
        // The password was right: send a fresh link rather than leave the user stuck.
        const user = await this.deps.users.findUserByEmail(email);
        if (user && !user.emailVerified) {
          await this.deps.lockout.clearUnlessLocked(email, now);
          await this.sendVerificationEmail({ id: user.id, email: user.email, name: user.fullName });
        }
        throw new AppError('AUTH_ERROR', AUTH_MESSAGES.emailNotVerified, { details: { reason: 'email_not_verified' } });
      }
      throw error;
    }
  }

  async verifyTwoFactor(
    input: { code: string; kind: 'totp' | 'backup'; trustDevice: boolean },
    meta: RequestMeta,
  ): Promise<WithCookies<SignInResponse>> {
    try {
      const body = { code: input.code, trustDevice: input.trustDevice };
      const { headers, response } =
        input.kind === 'totp'
          ? await this.deps.auth.api.verifyTOTP({ body, headers: meta.headers, returnHeaders: true })
          : await this.deps.auth.api.verifyBackupCode({ body, headers: meta.headers, returnHeaders: true });
      const user = await this.deps.users.getUserById(response.user.id);
      return { result: { twoFactorRequired: false, user: await this.#currentUserWithRequirement(user) }, cookies: headers.getSetCookie() };
    } catch (error) {
      if (isAPIError(error)) {
        const code = errorCode(error);
        if (code === 'FAILED_TO_CREATE_SESSION') throw new AppError('AUTH_ERROR', AUTH_MESSAGES.signInFailed);
        if (code === 'INVALID_TWO_FACTOR_COOKIE' || code === 'TWO_FACTOR_NOT_ENABLED') {
          throw new AppError('AUTH_ERROR', 'Your sign-in expired. Please sign in again.', { details: { reason: 'restart' } });
        }
        throw new AppError('AUTH_ERROR', AUTH_MESSAGES.invalidTwoFactorCode, { cause: error });
      }
      throw error;
    }
  }

  async signOut(meta: RequestMeta): Promise<WithCookies<null>> {
    try {
      const { headers } = await this.deps.auth.api.signOut({ headers: meta.headers, returnHeaders: true });
      return { result: null, cookies: headers.getSetCookie() };
    } catch (error) {
      // Signing out without a valid session still clears whatever cookie the browser holds.
      if (isAPIError(error)) return { result: null, cookies: [] };
      throw error;
    }
  }

  async sendVerificationEmail(user: { id: string; email: string; name: string }): Promise<void> {
    const token = randomToken();
    const context = await this.deps.auth.$context;
    await context.internalAdapter.createVerificationValue({
      identifier: `${EMAIL_VERIFICATION_PREFIX}${token}`,
      value: user.id,
      expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS * 1000),
    });
    const url = `${this.deps.config.publicUrl}/api/v1/auth/verify-email?token=${encodeURIComponent(token)}`;
    await this.deps.emails.send(user.email, verificationEmail(user.name, url));
  }

  /** Same answer, and the same work, whether or not the address has an unverified account: the job looks. */
  async resendVerification(email: string): Promise<void> {
    await this.deps.queue.enqueue(accountMailJob, { kind: 'resend-verification', email });
  }

  /** Consumes a verification link and signs its user in. */
  async verifyEmail(token: string, meta: RequestMeta): Promise<WithCookies<boolean>> {
    try {
      const { headers } = await this.deps.auth.api.parleyVerifyEmail({ body: { token }, headers: meta.headers, returnHeaders: true });
      return { result: true, cookies: headers.getSetCookie() };
    } catch (error) {
      if (isAPIError(error)) return { result: false, cookies: [] };
      throw error;
    }
  }

  /**
   * Sends a reset link when the address has an account; the answer is the same either way, and so
   * is the request's work: it only enqueues the job that looks the address up.
   */
  async requestPasswordReset(email: string): Promise<void> {
    await this.deps.queue.enqueue(accountMailJob, { kind: 'password-reset', email });
  }

  async isResetTokenValid(token: string): Promise<boolean> {
    const context = await this.deps.auth.$context;
    const row = await context.internalAdapter.findVerificationValue(`${RESET_PREFIX}${token}`);
    return row !== null && row.expiresAt.getTime() > Date.now();
  }

  async resetPassword(token: string, password: string, meta: RequestMeta): Promise<void> {
    const context = await this.deps.auth.$context;
    const row = await context.internalAdapter.findVerificationValue(`${RESET_PREFIX}${token}`);
    try {
      await this.deps.auth.api.resetPassword({ body: { token, newPassword: password }, headers: meta.headers });
    } catch (error) {
      if (isAPIError(error)) throw new AppError('GONE', AUTH_MESSAGES.invalidResetLink, { cause: error });
      throw error;
    }
    const user = row ? await this.deps.users.findUserById(row.value) : undefined;
    if (user) {
      // Proving ownership of the mailbox lifts a lockout.
      await this.deps.lockout.clear(user.email);
      await this.deps.securityEvents.record({
        type: 'auth.password_reset',
        userId: user.id,
        email: user.email,
        ipAddress: meta.ip,
        userAgent: meta.userAgent,
      });
    }
  }

  /** Starts Google sign-in: the identity provider's URL plus the state cookie. */
  async startGoogleSignIn(redirectTo: string, errorTo: string, meta: RequestMeta): Promise<WithCookies<string>> {
    if (!this.googleEnabled) throw new AppError('NOT_FOUND', 'Google sign-in is not configured');
    const { headers, response } = await this.deps.auth.api.signInSocial({
      body: { provider: GOOGLE_PROVIDER_ID, callbackURL: redirectTo, errorCallbackURL: errorTo, disableRedirect: true },
      headers: meta.headers,
      returnHeaders: true,
    });
    if (!response.url) throw new AppError('UNAVAILABLE', 'Google sign-in is unavailable right now. Please try again later.');
    return { result: response.url, cookies: headers.getSetCookie() };
  }

  /** The signed-in user, with whether two-factor setup must come first (the session answer). */
  async getCurrentUser(userId: string): Promise<CurrentUser> {
    return this.#currentUserWithRequirement(await this.deps.users.getUserById(userId));
  }

  async #recordLocked(email: string, state: LockoutState, meta: RequestMeta, at: Date): Promise<void> {
    await this.deps.securityEvents.record({
      type: 'auth.account_locked',
      severity: 'warning',
      email,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      details: { failedAttempts: state.failedCount, lockMinutes: LOCKOUT.lockMs / 60_000 },
      at,
    });
  }

  #lockedError(minutes: number): AppError {
    return new AppError('RATE_LIMITED', AUTH_MESSAGES.locked(minutes), { retryAfterSeconds: minutes * 60 });
  }

  async #escalateIfNeeded(escalated: boolean, severity: number, email: string, meta: RequestMeta, at: Date): Promise<void> {
    if (!escalated) return;
    this.deps.logger.warn({ email, severity }, 'repeated failed sign-ins escalated');
    await this.deps.securityEvents.record({
      type: 'auth.login_escalated',
      severity: 'critical',
      email,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      details: { severity },
      at,
    });
  }

  async #sendAccountExists(email: string, name: string): Promise<void> {
    const base = this.deps.config.publicUrl;
    await this.deps.emails.send(email, accountExistsEmail(name, `${base}/login`, `${base}/forgot-password`));
  }
}
