export const config = 'composition';
