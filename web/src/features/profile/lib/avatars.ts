/** The preset avatars shipped in web/public/avatars (spec part 2: a 3-column grid). */
export const PRESET_AVATARS = [
  'aurora',
  'ember',
  'forest',
  'ocean',
  'sunset',
  'violet',
  'slate',
  'mint',
  'rose',
].map((name) => ({ name, url: `/avatars/${name}.svg` }));
