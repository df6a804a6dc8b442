export { alphaInternal as alpha } from './internal';
