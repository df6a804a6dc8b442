/** Titles and descriptions of the sign-in, sign-up and password pages. */
import type { PageMeta, PagesOf } from '../page-layouts';

export const AUTH_PAGE_META: Record<PagesOf<'auth'>, PageMeta> = {
  signIn: { title: 'Sign In', description: 'Sign in to your Parley account.' },
  signUp: { title: 'Create Account', description: 'Create your Parley account.' },
  forgotPassword: { title: 'Forgot Password', description: 'Request a link to reset your Parley password.' },
  resetPassword: { title: 'Reset Password', description: 'Choose a new password for your Parley account.' },
};
