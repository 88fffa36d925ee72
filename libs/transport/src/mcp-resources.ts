// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { Resource, ResourceTemplate, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

/** One page of `resources/list`. */
export interface ResourcePage {
  resources: Resource[];
  nextCursor?: string | undefined;
}

/**
 * A server's MCP resources (issue 30): fixed templates (`resources/templates/list`), a paginated listing
 * (`resources/list`) and reads (`resources/read`). A read answers an `AppError` for a bad or unknown URI
 * (`invalid_arguments`, `*_not_found`); the server maps it onto a JSON-RPC error.
 */
export interface McpResourceProvider {
  templates: ResourceTemplate[];
  list(cursor: string | undefined, signal: AbortSignal): Promise<ResourcePage>;
  read(uri: string, signal: AbortSignal): Promise<ReadResourceResult['contents']>;
}

/** Most characters of text one resource read returns; the rest is cut and the marker says how to read on. */
export const RESOURCE_TEXT_MAX_CHARS = 100_000;

/** The marker appended to a text cut at `RESOURCE_TEXT_MAX_CHARS`. */
export const truncationMarker = (remaining: number, howToReadOn: string): string =>
  `\n\n[lectern: truncated, ${remaining} more characters; ${howToReadOn}]`;

/**
 * A text resource as the servers return it: its metadata as JSON at `<uri>#metadata`, then the text at `uri`,
 * already cut by the caller to what it may return. When `remaining` characters were left out, the marker says how
 * many and `howToReadOn` (a tool call) how to read them.
 */
export const textResource = (
  uri: string,
  metadata: Record<string, unknown>,
  text: string,
  remaining: number,
  howToReadOn: () => string,
): ReadResourceResult['contents'] => [
  { uri: `${uri}#metadata`, mimeType: 'application/json', text: JSON.stringify(metadata) },
  { uri, mimeType: 'text/plain', text: remaining > 0 ? text + truncationMarker(remaining, howToReadOn()) : text },
];

/**
 * The variables of `uri` under one of `templates` (the SDK's RFC 6570 matcher), or `invalid_arguments`.
 * Each variable is URI-decoded.
 */
export const matchResourceUri = (
  templates: readonly string[],
  uri: string,
): { template: string; vars: Record<string, string> } => {
  for (const template of templates) {
    const vars = new UriTemplate(template).match(uri);
    if (!vars) continue;
    const decoded: Record<string, string> = {};
    for (const [k, v] of Object.entries(vars)) {
      try {
        decoded[k] = decodeURIComponent(Array.isArray(v) ? v.join(',') : v);
      } catch {
        throw new AppError('invalid_arguments', `Not a valid resource URI: ${uri.slice(0, 200)}`);
      }
    }
    return { template, vars: decoded };
  }
  throw new AppError('invalid_arguments', `Unknown resource URI: ${uri.slice(0, 200)}`);
};
