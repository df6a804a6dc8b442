/**
 * Operator commands (`npm run parley -- <command> --flags`). Each command is a name, a zod schema
 * for its flags and a function over the services; the same table runs in the CLI process or, when
 * a server holds the embedded database, inside that server (cli/control.routes.ts).
 */
import { z } from 'zod';
import { accuracyNote } from '../../common/agents/accuracy-note';
import { engineKind, llmMode, updateAgentFields } from '../../common/api/agents';
import { createChannelInput, createClientInput } from '../../common/api/channels';
import { ROLES } from '../../common/roles';
import { emailSchema, nameSchema, newPasswordSchema } from '../../common/validation/auth';
import type { ParleyServices } from '../services';
import { toCurrentUser } from '../modules/users';

export interface CommandDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  summary: string;
  usage: string;
  flags: S;
  run(services: ParleyServices, flags: z.output<S>): Promise<unknown>;
}

/** `--file F`: the CLI reads the file where it runs and sends its text as `fileContent`. */
export async function readFileFlags(flags: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof flags.file !== 'string') return flags;
  const { readFile } = await import('node:fs/promises');
  try {
    return { ...flags, fileContent: await readFile(flags.file, 'utf8') };
  } catch (error) {
    throw new CommandError(`--file: cannot read ${flags.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function knowledgeFormatOf(file: string, content: string): 'csv' | 'json' {
  if (/\.json$/iu.test(file)) return 'json';
  if (/\.csv$/iu.test(file)) return 'csv';
  return /^\s*\[/u.test(content) ? 'json' : 'csv';
}

const onOff = z.enum(['on', 'off'], { error: 'Use on or off' }).transform((v) => v === 'on');

function defineCommand<S extends z.ZodType>(command: CommandDefinition<S>): CommandDefinition<S> {
  return command;
}

/** `channels:create` flags: the API's channel input, with `--client` for the client id. */
const [whatsappInput, messengerInput, instagramInput, webchatInput, apiInput] = createChannelInput.options;
const clientFlag = z.uuid({ error: 'CLIENT_ID must be a client id (uuid)' });
const channelFlags = z.discriminatedUnion(
  'kind',
  [
    whatsappInput.omit({ clientId: true }).extend({ client: clientFlag }),
    messengerInput.omit({ clientId: true }).extend({ client: clientFlag }),
    instagramInput.omit({ clientId: true }).extend({ client: clientFlag }),
    webchatInput.omit({ clientId: true }).extend({ client: clientFlag }),
    apiInput.omit({ clientId: true }).extend({ client: clientFlag }),
  ],
  { error: 'KIND must be one of whatsapp, messenger, instagram, webchat, api' },
);

export const commands = [
  defineCommand({
    name: 'users:create',
    summary: 'Create an active user whose e-mail counts as verified',
    usage: 'users:create --email E --password P --role admin|manager|client [--name N] [--client CLIENT_ID]',
    flags: z.object({
      email: emailSchema,
      password: newPasswordSchema,
      role: z.enum(ROLES),
      name: nameSchema.optional(),
      client: z.uuid({ error: 'CLIENT_ID must be a client id (uuid)' }).optional(),
    }),
    async run(services, flags) {
      const user = await services.users.createUser({
        email: flags.email,
        password: flags.password,
        role: flags.role,
        name: flags.name ?? flags.email.split('@')[0] ?? flags.email,
        clientId: flags.client ?? null,
      });
      return toCurrentUser(user);
    },
  }),
  defineCommand({
    name: 'clients:create',
    summary: 'Create a client (a business Parley serves)',
    usage: 'clients:create --name NAME [--contact-person P] [--email E] [--phone P]',
    flags: z.object({
      name: createClientInput.shape.companyName,
      contactPerson: createClientInput.shape.contactPerson,
      email: createClientInput.shape.email,
      phone: createClientInput.shape.phone,
    }),
    async run(services, flags) {
      return services.clients.createClient({
        companyName: flags.name,
        contactPerson: flags.contactPerson,
        email: flags.email,
        phone: flags.phone,
        status: 'active',
      });
    },
  }),
  defineCommand({
    name: 'channels:create',
    summary: "Connect a channel to a client; prints its webhook URL (and any generated secret, once)",
    usage:
      'channels:create --client CLIENT_ID --kind whatsapp --phone-number-id X --access-token T --app-secret S [--verify-token V] [--name N]\n' +
      '      (messenger: --page-id X; instagram: --account-id X; webchat: no credentials; api: --callback-url U [--signing-secret S])',
    flags: channelFlags,
    async run(services, flags) {
      const { client, ...channel } = flags;
      return services.channelsService.createChannel({ ...channel, clientId: client });
    },
  }),
  defineCommand({
    name: 'kb:import',
    summary: "Replace a client's FAQ with a CSV (question,answer[,link]) or JSON file; trains the agent and prints the entry count and when training finished",
    usage: 'kb:import --client CLIENT_ID --file F',
    flags: z.object({
      client: clientFlag,
      file: z.string().min(1),
      fileContent: z.string({ error: 'Required' }),
    }),
    async run(services, flags) {
      const format = knowledgeFormatOf(flags.file, flags.fileContent);
      const result = await services.agents.importKnowledge(flags.client, { format, content: flags.fileContent, mode: 'replace' });
      // Trained here and now (a queued training job for this version then finds it live).
      await services.agents.train(flags.client, result.version);
      const training = await services.agents.training(flags.client);
      if (training.status === 'failed') throw new CommandError(`Training failed: ${training.error ?? 'unknown error'}`);
      const metrics = training.metrics;
      return {
        entries: result.entries,
        questions: result.questions,
        version: result.version,
        trainedAt: training.liveAt,
        accuracy: metrics?.accuracy ?? null,
        // What the figure was measured on, and a warning when the knowledge base is too small to estimate it.
        accuracyNote: metrics ? accuracyNote(metrics).text : null,
      };
    },
  }),
  defineCommand({
    name: 'agents:configure',
    summary: "Configure a client's AI agent and switch it on",
    usage: 'agents:configure --client CLIENT_ID [--threshold 0.7|0.8|0.9] [--delay SECONDS] [--escalation on|off] [--engine embedded|openai|anthropic|openai-compatible] [--llm-mode embedded-first|llm] [--model M] [--base-url U] [--api-key K] [--enabled on|off]',
    flags: z.object({
      client: clientFlag,
      threshold: z
        .enum(['0.7', '0.8', '0.9'], { error: 'Use 0.7, 0.8 or 0.9' })
        .transform((v) => Number(v) as 0.7 | 0.8 | 0.9)
        .optional(),
      delay: z.coerce
        .number({ error: 'Response delay must be a whole number of seconds' })
        .pipe(updateAgentFields.shape.responseDelaySeconds)
        .optional(),
      escalation: onOff.optional(),
      engine: engineKind.optional(),
      llmMode: llmMode.optional(),
      model: z.string().min(1).optional(),
      baseUrl: z.url({ error: 'Enter an http(s) URL' }).optional(),
      apiKey: z.string().min(1).optional(),
      enabled: onOff.optional(),
    }),
    async run(services, flags) {
      const agent = await services.agents.updateAgent(flags.client, {
        enabled: flags.enabled ?? true,
        ...(flags.threshold === undefined ? {} : { confidenceThreshold: flags.threshold }),
        ...(flags.delay === undefined ? {} : { responseDelaySeconds: flags.delay }),
        ...(flags.escalation === undefined ? {} : { escalationEnabled: flags.escalation }),
        ...(flags.engine === undefined ? {} : { engine: flags.engine }),
        ...(flags.llmMode === undefined ? {} : { llmMode: flags.llmMode }),
        ...(flags.model === undefined ? {} : { llmModel: flags.model }),
        ...(flags.baseUrl === undefined ? {} : { llmBaseUrl: flags.baseUrl }),
        ...(flags.apiKey === undefined ? {} : { llmApiKey: flags.apiKey }),
      });
      const { clientId, name, enabled, confidenceThreshold, escalationEnabled, responseDelaySeconds, engine, llmMode: mode, llmModel, hasLlmApiKey } = agent;
      return { clientId, name, enabled, confidenceThreshold, escalationEnabled, responseDelaySeconds, engine, llmMode: mode, llmModel, hasLlmApiKey };
    },
  }),
  defineCommand({
    name: 'users:list',
    summary: 'List users with their role and status',
    usage: 'users:list',
    flags: z.object({}),
    async run(services) {
      return { users: await services.users.findUsers({}) };
    },
  }),
];

export type AnyCommand = CommandDefinition;

export function findCommand(name: string): AnyCommand | undefined {
  return (commands as AnyCommand[]).find((c) => c.name === name);
}

export class CommandError extends Error {}

/**
 * Command-line flags: `--name value`, `--name=value`, or a bare `--flag` (true). Kebab-case names
 * become camelCase. A value that itself starts with "--" needs the `--name=value` form.
 */
export function parseFlags(args: readonly string[]): Record<string, string | boolean> {
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--') || arg.length === 2) {
      throw new CommandError(`Unexpected argument "${arg}": flags look like --name value or --name=value`);
    }
    const equals = arg.indexOf('=');
    let name: string;
    let value: string | boolean;
    if (equals > 2) {
      name = arg.slice(2, equals);
      value = arg.slice(equals + 1);
    } else {
      name = arg.slice(2);
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        i += 1;
      } else {
        value = true;
      }
    }
    flags[name.replace(/-([a-z])/gu, (_, c: string) => c.toUpperCase())] = value;
  }
  return flags;
}

/** The command and its parsed flags; throws CommandError with a readable message. */
export function checkCommand(name: string, rawFlags: Record<string, unknown>): { command: AnyCommand; flags: unknown } {
  const command = findCommand(name);
  if (!command) {
    throw new CommandError(`Unknown command "${name}". Commands:\n${commands.map((c) => `  ${c.usage}`).join('\n')}`);
  }
  // A flag left out reads "Required" (unless its schema says better) instead of zod's type talk.
  const parsed = command.flags.safeParse(rawFlags, {
    error: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined),
  });
  if (!parsed.success) {
    const flagName = (path: PropertyKey[]) => path.map((p) => String(p).replace(/[A-Z]/gu, (c) => `-${c.toLowerCase()}`)).join('.');
    const details = parsed.error.issues.map((i) => `--${flagName(i.path) || '?'}: ${i.message}`).join('\n');
    throw new CommandError(`${details}\nUsage: npm run parley -- ${command.usage}`);
  }
  return { command, flags: parsed.data };
}

/** Validates flags and runs a command; throws CommandError with a readable message. */
export async function runCommand(services: ParleyServices, name: string, rawFlags: Record<string, unknown>): Promise<unknown> {
  const { command, flags } = checkCommand(name, rawFlags);
  return command.run(services, flags);
}
