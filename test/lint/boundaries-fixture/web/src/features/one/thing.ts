export const thing = 'feature-one';
