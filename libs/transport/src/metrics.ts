// SPDX-License-Identifier: AGPL-3.0-or-later
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one service. A registry per app instance (not prom-client's global one), so
 * several apps can live in one process (tests, `npm start`'s single-process mode) without clashes.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status_code'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly toolCalls: Counter<'tool' | 'outcome'>;
  readonly toolDuration: Histogram<'tool' | 'outcome'>;

  constructor(service: string, options: { defaultMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ service });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route and status code',
      labelNames: ['method', 'route', 'status_code'],
      registers: [this.registry],
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    this.toolCalls = new Counter({
      name: 'mcp_tool_calls_total',
      help: 'MCP tool calls by tool and outcome (success, error, internal_error)',
      labelNames: ['tool', 'outcome'],
      registers: [this.registry],
    });
    this.toolDuration = new Histogram({
      name: 'mcp_tool_duration_seconds',
      help: 'MCP tool call latency by tool and outcome',
      labelNames: ['tool', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [this.registry],
    });
  }

  observeTool(tool: string, outcome: string, seconds: number): void {
    this.toolCalls.inc({ tool, outcome });
    this.toolDuration.observe({ tool, outcome }, seconds);
  }
}
