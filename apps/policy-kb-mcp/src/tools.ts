import { policyKbTools } from '@lectern/contracts';
import { notImplemented, type ToolRegistration } from '@lectern/transport';

/** The six tools of spec 001 with their full contracts; handlers arrive with the policy KB issue. */
export const policyKbToolRegistrations = (): ToolRegistration[] =>
  policyKbTools.map((definition) => ({ definition, handler: notImplemented(definition.name) }));
