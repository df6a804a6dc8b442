import path from 'node:path';

export const SNAPSHOT_FILE = path.resolve(import.meta.dirname, '../../.tmp/pglite-migrated.tar');
