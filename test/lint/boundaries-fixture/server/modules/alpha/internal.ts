export const alphaInternal = 'alpha-internal';
