/** Types of scripts/build-lib.mjs (building the web app and the server into dist/). */
export const root: string;
export function sourceFingerprint(): string;
export function isBuildFresh(): boolean;
export function buildServer(): Promise<void>;
export function buildWeb(): Promise<void>;
export function buildAll(): Promise<number>;
