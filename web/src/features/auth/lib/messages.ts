/**
 * Which toast an auth failure shows (spec part 1 §8, part 2 §8), by the server's error code.
 */
import { AUTH_MESSAGES } from '@common/api/auth';
import { isApiError } from '@/lib/api-client';

export interface ToastText {
  title: string;
  description: string;
}

/** A message we can show as is: the server's own words, not an internal failure. */
function serverMessage(error: unknown): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.code === 'INTERNAL' || error.code === 'UNAVAILABLE' || error.message.trim() === '') return undefined;
  return error.message;
}

export function signInFailureToast(error: unknown): ToastText {
  if (isApiError(error) && error.code === 'RATE_LIMITED') {
    return { title: 'Account Temporarily Locked', description: error.message };
  }
  if (isApiError(error) && error.code === 'VALIDATION_ERROR') {
    return { title: 'Invalid Input', description: error.message };
  }
  return { title: 'Sign In Failed', description: serverMessage(error) ?? AUTH_MESSAGES.signInFailed };
}

export function signUpFailureToast(error: unknown): ToastText {
  return { title: 'Sign Up Failed', description: serverMessage(error) ?? 'Failed to create account. Please try again.' };
}

/** Forgot password shows its failure inline (spec part 2 §8). */
export function forgotPasswordFailureMessage(error: unknown): string {
  return serverMessage(error) ?? 'Failed to send reset email';
}

export function resetFailureToast(error: unknown): ToastText {
  const message = serverMessage(error);
  return message
    ? { title: 'Password Reset Failed', description: message }
    : { title: 'Reset Failed', description: 'Failed to reset password. Please try again.' };
}

export const INVALID_RESET_LINK: ToastText = {
  title: 'Invalid Reset Link',
  description: AUTH_MESSAGES.invalidResetLink,
};

export const PASSWORD_UPDATED: ToastText = {
  title: 'Password Updated',
  description: 'Your password has been updated successfully. You can now sign in with your new password.',
};

export type NoticeScreen = 'sign-in' | 'sign-up' | 'dashboard';

/**
 * Toasts for the query parameters the server's redirects add: `/login?error=google`,
 * `/login?error=verification`, `/dashboard?verified=1` (after a verification link signed the user in).
 */
export function authNoticeFor(
  params: URLSearchParams,
  screen: NoticeScreen,
): (ToastText & { kind: 'error' | 'success' }) | null {
  const error = params.get('error');
  // Spec part 1 §2.7: a social sign-in error is silent on the register screen.
  if (error === 'google' && screen === 'sign-in') {
    return { kind: 'error', title: 'Google Sign In Failed', description: 'We could not sign you in with Google. Please try again.' };
  }
  if (error === 'verification' && screen !== 'dashboard') {
    return {
      kind: 'error',
      title: 'Email Verification Failed',
      description: 'This verification link is invalid or has expired. Sign in and we will send you a new one.',
    };
  }
  if (params.get('verified') === '1') {
    return {
      kind: 'success',
      title: 'Email Verified',
      description: screen === 'dashboard' ? 'Your email address is verified. Welcome to Parley!' : 'Your email address is verified. You can now sign in.',
    };
  }
  return null;
}
