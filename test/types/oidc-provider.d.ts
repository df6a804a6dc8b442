/**
 * The part of oidc-provider 9 (no bundled types) that test/helpers/oidc-provider.ts uses.
 * https://github.com/panva/node-oidc-provider/blob/v9.x/docs/README.md
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): AccountClaims | Promise<AccountClaims>;
  }

  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
    };
    type: string;
    body: unknown;
    status: number;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
    [key: string]: unknown;
  }

  export interface Configuration {
    clients?: ClientMetadata[];
    findAccount?: (ctx: KoaContextWithOIDC, id: string) => Account | undefined | Promise<Account | undefined>;
    claims?: Record<string, string[] | null>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys?: string[] };
    jwks?: { keys: Record<string, unknown>[] };
    pkce?: { required?: (ctx: KoaContextWithOIDC, client: unknown) => boolean };
    features?: Record<string, { enabled: boolean; [option: string]: unknown }>;
    interactions?: { url?: (ctx: KoaContextWithOIDC, interaction: Interaction) => string | Promise<string> };
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
    renderError?: (ctx: KoaContextWithOIDC, out: Record<string, unknown>, error: Error) => void | Promise<void>;
    ttl?: Record<string, number>;
    [option: string]: unknown;
  }

  export interface InteractionResult {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    Grant: new (properties: { accountId: string; clientId: string }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
