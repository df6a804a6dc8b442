/** This installation's real values for the n8n guide: where Parley is and where workflows report back. */
export interface InstallationValues {
  /** Parley's public address, as the API builds callback URLs (else the browser's origin). */
  baseUrl: string;
  messagesUrl: string;
  statusUrl: string;
}

const CALLBACK_PATH = /^(.+?)\/api\/v1\/automation-executions\//u;

/** The API's public URL as it appears in the payload template's callback URLs, if it does. */
export function publicUrlFromTemplate(template: Record<string, unknown> | undefined): string | null {
  const callback = template?.['callback'];
  if (typeof callback !== 'object' || callback === null) return null;
  const messagesUrl = (callback as Record<string, unknown>)['messages_url'];
  if (typeof messagesUrl !== 'string') return null;
  return CALLBACK_PATH.exec(messagesUrl)?.[1] ?? null;
}

export function installationValues(template: Record<string, unknown> | undefined, origin: string): InstallationValues {
  const baseUrl = (publicUrlFromTemplate(template) ?? origin).replace(/\/+$/u, '');
  return {
    baseUrl,
    messagesUrl: `${baseUrl}/api/v1/automation-executions/{id}/messages`,
    statusUrl: `${baseUrl}/api/v1/automation-executions/{id}`,
  };
}
