export const shared = 'common';
