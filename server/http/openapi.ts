/**
 * The OpenAPI document built from the routes' zod schemas, and Swagger UI at /docs.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransformObject, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export interface OpenApiOptions {
  /** Parley's version, shown in the document's info. */
  version: string;
  /** Schemas no route uses, published as components (the public events' envelopes), with an example each. */
  schemas?: Record<string, { schema: z.ZodType; example: unknown }>;
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
        description: 'The HTTP API of Parley. Cookie sessions; state-changing calls need the x-csrf-token header.',
      },
    },
    transform: jsonSchemaTransform,
    transformObject: createJsonSchemaTransformObject({ schemaRegistry: components }),
  });
  await server.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // Swagger UI's default policy adds upgrade-insecure-requests, which breaks plain-HTTP installs.
    staticCSP:
      "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'none'; img-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'",
  });
}
