/**
 * API key scopes (issue 14 §4). A key-authenticated request may call a route only when the key
 * has the scope the route declares (`config.scope` beside `config.access`); the key's user's role
 * and client scope still apply on top, exactly as for a session. A route without a scope cannot
 * be called with a key (sessions only: profile, passwords, API keys themselves…).
 */
import { z } from 'zod';

export const API_SCOPES = [
  'conversations:read',
  'messages:send',
  'contacts:read',
  'webhooks:manage',
  'automations:read',
  'automations:run',
  'automations:report',
  'agents:read',
  'clients:read',
  'insights:read',
] as const;
export const apiScope = z.enum(API_SCOPES, { error: 'Unknown scope' });
export type ApiScope = z.infer<typeof apiScope>;

export const API_SCOPE_LABELS: Readonly<Record<ApiScope, string>> = {
  'conversations:read': 'Read conversations and messages',
  'messages:send': 'Send messages',
  'contacts:read': 'Read contacts',
  'webhooks:manage': 'Manage webhook subscriptions (REST hooks)',
  'automations:read': 'Read automations and executions',
  'automations:run': 'Run and pause automations',
  'automations:report': 'Report automation executions',
  'agents:read': 'Read AI agents',
  'clients:read': 'Read clients',
  'insights:read': 'Read insights and reports',
};
