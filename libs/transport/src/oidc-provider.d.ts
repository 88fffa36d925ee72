// SPDX-License-Identifier: AGPL-3.0-or-later
// The few parts of oidc-provider (a dev dependency, shipped without types) that the OAuth tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ProviderClient {
    clientId: string;
  }
  interface ProviderInteraction {
    uid: string;
  }
  type Ctx = unknown;
  interface ProviderGrant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Array<Record<string, unknown>>;
        jwks: { keys: unknown[] };
        scopes?: string[];
        /** A lifetime in seconds, or a function of the token (its resource server's `accessTokenTTL`). */
        ttl?: Record<
          string,
          | number
          | ((ctx: Ctx, token: { resourceServer?: { accessTokenTTL?: number } }, client: ProviderClient) => number)
        >;
        pkce?: { required: () => boolean };
        features?: {
          devInteractions?: { enabled: boolean };
          clientCredentials?: { enabled: boolean };
          introspection?: { enabled: boolean };
          resourceIndicators?: {
            enabled: boolean;
            defaultResource?: (ctx: Ctx) => string;
            useGrantedResource?: () => boolean;
            getResourceServerInfo?: (ctx: Ctx, resource: string, client: ProviderClient) => Record<string, unknown>;
          };
        };
        interactions?: { url: (ctx: Ctx, interaction: ProviderInteraction) => string };
        findAccount?: (ctx: Ctx, sub: string) => { accountId: string; claims: () => Record<string, unknown> };
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ params: Record<string, unknown> }>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>): Promise<void>;
    Grant: new (properties: { accountId: string; clientId: string }) => ProviderGrant;
  }
}
