import type { FieldErrors, FieldValues } from 'react-hook-form';

/** The first message of a form's validation errors, for the "Invalid Input" toast. */
export function firstFormError<T extends FieldValues>(errors: FieldErrors<T>): string {
  for (const error of Object.values(errors)) {
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message !== '') {
      return error.message;
    }
  }
  return 'Please check the form and try again.';
}
