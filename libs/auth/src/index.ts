export { AuthMessages, checkAuthorization, tokensMatch } from './bearer-token.js';
export type { AuthDecision, AuthFailure } from './bearer-token.js';
export { installBearerAuth } from './fastify-bearer-auth.js';
export type { BearerAuthOptions } from './fastify-bearer-auth.js';
export {
  MIN_API_KEY_LENGTH,
  assertStartupAuth,
  isLoopbackHost,
  isPlaceholderKey,
  startupAuthProblems,
} from './startup-auth.js';
export type { StartupAuthFacts } from './startup-auth.js';
