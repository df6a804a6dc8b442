/**
 * The OpenAPI document built from the routes' zod schemas, and Swagger UI at /docs.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createJsonSchemaTransformObject, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export interface OpenApiOptions {
  /** Parley's version, shown in the document's info. */
  version: string;
  /** Schemas no route uses, published as components (the public events' envelopes), with an example each. */
  schemas?: Record<string, { schema: z.ZodType; example: unknown }>;
}

const API_KEY_DOC = [
  'The HTTP API of Parley.',
  '',
  '**Browser sessions**: the session cookie; state-changing calls need the `x-csrf-token` header (the `parley_csrf` cookie\'s value).',
  '',
  '**API keys** (docs/api-keys.md): create one on `/profile` → API keys (or, for a service account, `/settings` → Security) and send it as',
  '`Authorization: Bearer <key>` — no cookie and no CSRF token. Routes marked with the `apiKey` lock say the scope they need;',
  'the rest take sessions only. The key acts as its user: same role, same client scope. Rate limit per key (`API_KEY_RATE_LIMIT_PER_MINUTE`,',
  'default 600 a minute): 429 with `Retry-After`. Unknown, revoked or expired keys answer 401; a missing scope 403.',
  '',
  '```',
  'curl -H "Authorization: Bearer $PARLEY_API_KEY" https://parley.example.com/api/v1/me',
  'curl -H "Authorization: Bearer $PARLEY_API_KEY" "https://parley.example.com/api/v1/conversations?tab=all"',
  'curl -X POST -H "Authorization: Bearer $PARLEY_API_KEY" -H "content-type: application/json" \\',
  '     -d \'{"text":"Hello from our CRM"}\' https://parley.example.com/api/v1/conversations/<id>/messages',
  '```',
].join('\n');

/** Marks the routes API keys may call with the bearer scheme and the scope they need. */
function withKeySecurity(schema: FastifySchema, scope: string | undefined, access: unknown): FastifySchema {
  if (scope === undefined) return schema;
  const needs = scope === 'any' ? 'any valid API key' : `an API key with the scope \`${scope}\``;
  // Signature routes check their own credential otherwise (the empty requirement: no scheme here).
  const other: Record<string, string[]> = access === 'signature' ? {} : { session: [] };
  const description = [schema.description, `**API key**: ${needs}${access === 'signature' ? '' : ', or a session'}.`].filter(Boolean).join('\n\n');
  return { ...schema, description, security: [{ apiKey: scope === 'any' ? [] : [scope] }, other] };
}

/** Registered before the routes, so that every route is in the document. */
export async function registerOpenApi(server: FastifyInstance, options: OpenApiOptions): Promise<void> {
  // Their own registry: the routes' schemas stay inline as before.
  const components = z.registry<{ id: string; examples?: unknown[] }>();
  for (const [id, { schema, example }] of Object.entries(options.schemas ?? {})) components.add(schema, { id, examples: [example] });
  await server.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Parley API',
        version: options.version,
        description: API_KEY_DOC,
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'pk_live_<prefix>_<secret>', description: 'An API key (docs/api-keys.md)' },
          session: { type: 'apiKey', in: 'cookie', name: 'parley.session_token', description: 'A browser session (plus x-csrf-token on writes)' },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return { ...out, schema: withKeySecurity(out.schema, input.route.config?.scope, input.route.config?.access) };
    },
    transformObject: createJsonSchemaTransformObject({ schemaRegistry: components }),
  });
  await server.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // Swagger UI's default policy adds upgrade-insecure-requests, which breaks plain-HTTP installs.
    staticCSP:
      "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'none'; img-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'",
  });
}
