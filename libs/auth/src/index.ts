// SPDX-License-Identifier: AGPL-3.0-or-later
export { AuthMessages, checkAuthorization, tokensMatch } from './bearer-token.js';
export type { AuthDecision, AuthFailure } from './bearer-token.js';
export { installBearerAuth } from './fastify-bearer-auth.js';
export type { BearerAuthOptions } from './fastify-bearer-auth.js';
export { MIN_API_KEY_LENGTH, isLoopbackHost, isPlaceholderKey, startupAuthProblems } from './startup-auth.js';
export type { StartupAuthFacts } from './startup-auth.js';
export {
  AuthConfigError,
  authModeProblems,
  createTokenVerifier,
  oauthSettings,
  protectedResourceMetadataPath,
} from './oauth.js';
export type { AuthEnv, OAuthSettings, Principal, TokenCheck, TokenVerifier } from './oauth.js';
export { installOAuth, refuseInsufficientScope, requireScope } from './fastify-oauth.js';
export type { OAuthGuardOptions } from './fastify-oauth.js';
export { ALL_SCOPES, LecternScopes, higherScope, scopesGrant, toolScope } from './scopes.js';
export type { LecternScope } from './scopes.js';
