export const button = 'component';
