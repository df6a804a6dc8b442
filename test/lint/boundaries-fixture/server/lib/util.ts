export const util = 'server-lib';
