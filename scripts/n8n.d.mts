/** Types of scripts/n8n.mjs (the real n8n's install in a cache outside the repository). */
export const N8N_VERSION: string;
export function n8nCacheRoot(): string;
export function n8nInstallDir(version?: string): string;
export function n8nBinary(version?: string): string;
export function isN8nInstalled(version?: string): boolean;
export function ensureN8n(options?: { version?: string; log?: (line: string) => void; install?: (stagingDir: string) => Promise<void> }): Promise<string>;
