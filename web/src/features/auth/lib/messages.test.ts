import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { authNoticeFor, resetFailureToast, signInFailureToast, signUpFailureToast } from './messages';

describe('signInFailureToast (spec part 1 §8)', () => {
  it('shows the remaining attempts under "Sign In Failed"', () => {
    const error = new ApiError('AUTH_ERROR', 'Invalid email or password. 4 attempt(s) remaining.', 401);
    expect(signInFailureToast(error)).toEqual({
      title: 'Sign In Failed',
      description: 'Invalid email or password. 4 attempt(s) remaining.',
    });
  });

  it('shows the lockout under "Account Temporarily Locked"', () => {
    const error = new ApiError('RATE_LIMITED', 'Too many failed attempts. Please try again in 30 minute(s).', 429);
    expect(signInFailureToast(error).title).toBe('Account Temporarily Locked');
    expect(signInFailureToast(error).description).toBe('Too many failed attempts. Please try again in 30 minute(s).');
  });

  it('shows a validation failure under "Invalid Input"', () => {
    expect(signInFailureToast(new ApiError('VALIDATION_ERROR', 'Email is required', 400))).toEqual({
      title: 'Invalid Input',
      description: 'Email is required',
    });
  });

  it('falls back to the generic text when the server failed', () => {
    expect(signInFailureToast(new ApiError('INTERNAL', 'Internal server error', 500))).toEqual({
      title: 'Sign In Failed',
      description: 'Sign in failed. Please check your credentials.',
    });
    expect(signInFailureToast(new Error('boom')).description).toBe('Sign in failed. Please check your credentials.');
  });
});

describe('other auth toasts', () => {
  it('uses the sign-up fallback', () => {
    expect(signUpFailureToast(new ApiError('UNAVAILABLE', 'x', 0)).description).toBe(
      'Failed to create account. Please try again.',
    );
  });

  it('uses "Reset Failed" only without a server message', () => {
    expect(resetFailureToast(new ApiError('VALIDATION_ERROR', 'Password is too long', 400)).title).toBe(
      'Password Reset Failed',
    );
    expect(resetFailureToast(new Error('x'))).toEqual({
      title: 'Reset Failed',
      description: 'Failed to reset password. Please try again.',
    });
  });
});

describe('authNoticeFor', () => {
  it('reports a Google failure on sign-in but stays silent on sign-up', () => {
    const params = new URLSearchParams('error=google');
    expect(authNoticeFor(params, 'sign-in')?.title).toBe('Google Sign In Failed');
    expect(authNoticeFor(params, 'sign-up')).toBeNull();
  });

  it('explains verification links', () => {
    expect(authNoticeFor(new URLSearchParams('error=verification'), 'sign-in')?.kind).toBe('error');
    expect(authNoticeFor(new URLSearchParams('verified=1'), 'sign-in')?.kind).toBe('success');
    expect(authNoticeFor(new URLSearchParams(''), 'sign-in')).toBeNull();
    expect(authNoticeFor(new URLSearchParams('verified=1'), 'dashboard')?.title).toBe('Email Verified');
  });

  it('reads the first error when the server adds a second one', () => {
    expect(authNoticeFor(new URLSearchParams('error=google&error=access_denied'), 'sign-in')?.title).toBe(
      'Google Sign In Failed',
    );
  });
});
