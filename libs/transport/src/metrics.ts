// SPDX-License-Identifier: AGPL-3.0-or-later
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const EMBEDDING_MODEL_INFO = 'lectern_embedding_model_info';

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

  /**
   * `lectern_embedding_model_info{model="<id>"} 1` for each embedding model the service has loaded, read from
   * `models()` at every scrape (the console's System page shows them). Called once per service; a second call
   * replaces the source.
   */
  trackEmbeddingModels(models: () => readonly string[]): void {
    this.embeddingModels = models;
    if (this.registry.getSingleMetric(EMBEDDING_MODEL_INFO)) return;
    // prom-client calls collect() with the gauge as `this`: the source is read through this arrow.
    const current = () => this.embeddingModels();
    new Gauge({
      name: EMBEDDING_MODEL_INFO,
      help: 'Embedding models this service has loaded (value always 1)',
      labelNames: ['model'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const model of current()) this.set({ model }, 1);
      },
    });
  }

  private embeddingModels: () => readonly string[] = () => [];

  observeTool(tool: string, outcome: string, seconds: number): void {
    this.toolCalls.inc({ tool, outcome });
    this.toolDuration.observe({ tool, outcome }, seconds);
  }
}
