import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ParleyServices } from '../services';
import { CommandError, runCommand } from './commands';
import { BackupError } from '../db/backup';
import { AppError } from '../lib/errors';

/**
 * Runs an operator command inside this server, for the CLI when this process holds the embedded
 * database. Authenticated by the control token in DATA_DIR/parley.lock (readable only by the OS
 * user running Parley); no cookies, so no CSRF token.
 */
export const controlRoutes: FastifyPluginAsyncZod<{ services: ParleyServices; backup: () => Promise<Buffer> }> = async (app, { services, backup }) => {
  app.post(
    '/api/internal/cli',
    {
      config: { access: 'control', csrf: false },
      schema: {
        hide: true,
        body: z.object({ command: z.string().min(1).max(100), flags: z.record(z.string(), z.union([z.string(), z.boolean()])) }),
      },
    },
    async (request) => {
      try {
        return { result: await runCommand(services, request.body.command, request.body.flags) };
      } catch (error) {
        if (error instanceof CommandError) throw new AppError('VALIDATION_ERROR', error.message);
        throw error;
      }
    },
  );

  // `parley backup` while this server holds the embedded database: the whole backup file, the
  // secrets key included (the token is readable only by the OS user who can read the key file too).
  app.post(
    '/api/internal/backup',
    { config: { access: 'control', csrf: false }, schema: { hide: true } },
    async (_request, reply) => {
      let file: Buffer;
      try {
        file = await backup();
      } catch (error) {
        if (error instanceof BackupError) throw new AppError('VALIDATION_ERROR', error.message, { cause: error });
        throw error;
      }
      return reply.header('content-type', 'application/octet-stream').header('cache-control', 'no-store').send(file);
    },
  );
};
