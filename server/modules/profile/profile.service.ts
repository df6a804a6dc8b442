/**
 * The signed-in user's own account: profile fields, password, sessions, two-factor and
 * notification preferences. Password checks, session rotation and TOTP secrets are better-auth's;
 * this service maps its answers to Parley's error codes and records the security events.
 */
import { isAPIError } from 'better-auth/api';
import QRCode from 'qrcode';
import type { NotificationPreferences, SessionInfo, UpdateNotificationPreferencesInput } from '../../../common/api/me';
import { AUTH_MESSAGES } from '../../../common/api/auth';
import type { CurrentUser } from '../../../common/api/users';
import { AppError, notFound } from '../../lib/errors';
import type { AuthService, BetterAuth, RequestMeta, WithCookies } from '../auth';
import type { SecurityEventsService } from '../security';
import { type ProfileChanges, toCurrentUser, type UsersService } from '../users';

export const PROFILE_MESSAGES = {
  wrongCurrentPassword: 'Current password is incorrect',
  noPassword: 'Your account has no password yet. Use "Forgot password?" on the sign-in page to set one.',
  wrongPassword: 'Password is incorrect',
  twoFactorAlreadyOn: 'Two-factor authentication is already on.',
  twoFactorNotOn: 'Two-factor authentication is not on.',
  twoFactorNotStarted: 'Start two-factor setup first.',
} as const;

export interface ProfileServiceDeps {
  auth: BetterAuth;
  users: UsersService;
  /** The user's sessions (the auth module's). */
  sessions: AuthService;
  securityEvents: SecurityEventsService;
}

/** The signed-in caller: user id and the id of the session the request came with. */
export interface Caller {
  id: string;
  email: string;
  sessionId: string;
}

export interface TwoFactorSetup {
  totpUri: string;
  qrCodeSvg: string;
  backupCodes: string[];
}

function betterAuthCode(error: unknown): string | undefined {
  if (!isAPIError(error)) return undefined;
  const body = error.body as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

function fieldError(field: string, message: string, cause: unknown): AppError {
  return new AppError('VALIDATION_ERROR', message, { fields: { [field]: message }, cause });
}

export class ProfileService {
  constructor(private readonly deps: ProfileServiceDeps) {}

  async getMe(userId: string): Promise<CurrentUser> {
    return toCurrentUser(await this.deps.users.getUserById(userId));
  }

  async updateProfile(userId: string, changes: ProfileChanges): Promise<CurrentUser> {
    if (!(await this.deps.users.updateProfile(userId, changes))) throw notFound('User');
    return this.getMe(userId);
  }

  /** Checks the current password; with `revokeOtherSessions` every other session ends. */
  async changePassword(
    caller: Caller,
    input: { currentPassword: string; newPassword: string; revokeOtherSessions: boolean },
    meta: RequestMeta,
  ): Promise<WithCookies<null>> {
    let cookies: string[];
    try {
      const { headers } = await this.deps.auth.api.changePassword({
        body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: input.revokeOtherSessions },
        headers: meta.headers,
        returnHeaders: true,
      });
      cookies = headers.getSetCookie();
    } catch (error) {
      const code = betterAuthCode(error);
      if (code === 'INVALID_PASSWORD') throw fieldError('currentPassword', PROFILE_MESSAGES.wrongCurrentPassword, error);
      if (code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') throw fieldError('currentPassword', PROFILE_MESSAGES.noPassword, error);
      throw error;
    }
    await this.deps.securityEvents.record({
      type: 'auth.password_changed',
      userId: caller.id,
      email: caller.email,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      details: { otherSessionsRevoked: input.revokeOtherSessions },
    });
    return { result: null, cookies };
  }

  async findSessions(caller: Caller): Promise<SessionInfo[]> {
    const rows = await this.deps.sessions.findSessions(caller.id);
    return rows.map((s) => ({
      id: s.id,
      current: s.id === caller.sessionId,
      ipAddress: s.ipAddress,
      userAgent: s.userAgent,
      createdAt: s.createdAt.toISOString(),
      lastActiveAt: s.updatedAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
    }));
  }

  /** Ends one of the caller's sessions; anyone else's session id reads as not found. */
  async revokeSession(caller: Caller, sessionId: string): Promise<void> {
    if (!(await this.deps.sessions.deleteSession(caller.id, sessionId))) throw notFound('Session');
  }

  async revokeOtherSessions(caller: Caller): Promise<number> {
    return this.deps.sessions.deleteOtherSessions(caller.id, caller.sessionId);
  }

  /**
   * Starts TOTP setup: a new secret and recovery codes. better-auth stores the secret as not yet
   * verified and leaves `two_factor_enabled` false (its `skipVerificationOnEnable` defaults to
   * false; we never set it), so nothing changes at sign-in until `confirmTwoFactor`.
   */
  async enableTwoFactor(password: string, meta: RequestMeta): Promise<TwoFactorSetup> {
    try {
      const result = await this.deps.auth.api.enableTwoFactor({ body: { password }, headers: meta.headers });
      if (result.method !== 'totp') throw new Error(`unexpected two-factor method ${result.method}`);
      const qrCodeSvg = await QRCode.toString(result.totpURI, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      return { totpUri: result.totpURI, qrCodeSvg, backupCodes: result.backupCodes };
    } catch (error) {
      const code = betterAuthCode(error);
      if (code === 'INVALID_PASSWORD') throw fieldError('password', PROFILE_MESSAGES.wrongPassword, error);
      if (code === 'TOTP_ALREADY_ENABLED') throw new AppError('CONFLICT', PROFILE_MESSAGES.twoFactorAlreadyOn, { cause: error });
      throw error;
    }
  }

  /** Turns two-factor on once the authenticator app's code matches the pending secret. */
  async confirmTwoFactor(caller: Caller, code: string, meta: RequestMeta): Promise<WithCookies<{ enabled: true }>> {
    const user = await this.deps.users.getUserById(caller.id);
    if (user.twoFactorEnabled) return { result: { enabled: true }, cookies: [] };
    let cookies: string[];
    try {
      // With a session, better-auth verifies against the pending secret, marks it verified, sets
      // two_factor_enabled and rotates the session (new cookie).
      const { headers } = await this.deps.auth.api.verifyTOTP({ body: { code }, headers: meta.headers, returnHeaders: true });
      cookies = headers.getSetCookie();
    } catch (error) {
      const reason = betterAuthCode(error);
      if (reason === 'INVALID_CODE') throw fieldError('code', AUTH_MESSAGES.invalidTwoFactorCode, error);
      if (reason === 'TOTP_NOT_ENABLED') throw new AppError('CONFLICT', PROFILE_MESSAGES.twoFactorNotStarted, { cause: error });
      throw error;
    }
    await this.deps.securityEvents.record({
      type: 'auth.two_factor_enabled',
      userId: caller.id,
      email: caller.email,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
    });
    return { result: { enabled: true }, cookies };
  }

  /** Turns two-factor off (or abandons a pending setup); needs the password. */
  async disableTwoFactor(caller: Caller, password: string, meta: RequestMeta): Promise<WithCookies<{ enabled: false }>> {
    const user = await this.deps.users.getUserById(caller.id);
    let cookies: string[];
    try {
      const { headers } = await this.deps.auth.api.disableTwoFactor({ body: { password }, headers: meta.headers, returnHeaders: true });
      cookies = headers.getSetCookie();
    } catch (error) {
      if (betterAuthCode(error) === 'INVALID_PASSWORD') throw fieldError('password', PROFILE_MESSAGES.wrongPassword, error);
      throw error;
    }
    if (user.twoFactorEnabled) {
      await this.deps.securityEvents.record({
        type: 'auth.two_factor_disabled',
        severity: 'warning',
        userId: caller.id,
        email: caller.email,
        ipAddress: meta.ip,
        userAgent: meta.userAgent,
      });
    }
    return { result: { enabled: false }, cookies };
  }

  /** New recovery codes; the old ones stop working. */
  async regenerateBackupCodes(password: string, meta: RequestMeta): Promise<string[]> {
    try {
      const result = await this.deps.auth.api.generateBackupCodes({ body: { password }, headers: meta.headers });
      return result.backupCodes;
    } catch (error) {
      const code = betterAuthCode(error);
      if (code === 'INVALID_PASSWORD') throw fieldError('password', PROFILE_MESSAGES.wrongPassword, error);
      if (code === 'TWO_FACTOR_NOT_ENABLED') throw new AppError('CONFLICT', PROFILE_MESSAGES.twoFactorNotOn, { cause: error });
      throw error;
    }
  }

  async getNotificationPreferences(userId: string): Promise<NotificationPreferences> {
    const preferences = await this.deps.users.getNotificationPreferences(userId);
    if (!preferences) throw notFound('User');
    return preferences;
  }

  async setNotificationPreferences(userId: string, preferences: NotificationPreferences): Promise<NotificationPreferences> {
    if (!(await this.deps.users.setNotificationPreferences(userId, preferences))) throw notFound('User');
    return preferences;
  }

  /** Only the switches given change, in one statement (two pages saving at once keep each other's). */
  async updateNotificationPreferences(userId: string, changes: UpdateNotificationPreferencesInput): Promise<NotificationPreferences> {
    const preferences = await this.deps.users.updateNotificationPreferences(userId, changes);
    if (!preferences) throw notFound('User');
    return preferences;
  }
}
