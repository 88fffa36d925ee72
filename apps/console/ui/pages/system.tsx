// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ExtractionTaskListSchema,
  ListProjectsOutput,
  PolicyDetailResponseSchema,
  PolicyListResponseSchema,
} from '@lectern/contracts';
import { useEffect, useState } from 'preact/hooks';
import { z } from 'zod';
import { callTool, describeError, rest, restText, type Service } from '../api.js';
import { ErrorNote, Section } from '../components.js';

const SERVICES: { name: Service; title: string }[] = [
  { name: 'converter', title: 'converter' },
  { name: 'documents', title: 'document-store-mcp' },
  { name: 'policies', title: 'policy-kb-mcp' },
  { name: 'extraction', title: 'extraction-api' },
];

const Health = z.object({ status: z.string() });

/**
 * Sums of the Prometheus samples of a few metric names (the exposition text is `name{labels} value` per line).
 * Hand-written: a handful of lines, and prom-client's own parser is not meant for browsers.
 */
export const metricSums = (text: string, names: readonly string[]): Record<string, number> => {
  const sums: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || !names.includes(m[1]!)) continue;
    const value = Number(m[2]);
    if (Number.isFinite(value)) sums[m[1]!] = (sums[m[1]!] ?? 0) + value;
  }
  return sums;
};

const FIGURES = [
  ['http_requests_total', 'requests', (v: number) => String(v)],
  ['mcp_tool_calls_total', 'tool calls', (v: number) => String(v)],
  ['process_resident_memory_bytes', 'memory', (v: number) => `${(v / 1024 ** 2).toFixed(0)} MB`],
  ['process_cpu_seconds_total', 'CPU', (v: number) => `${v.toFixed(1)} s`],
  ['nodejs_eventloop_lag_p99_seconds', 'event-loop lag p99', (v: number) => `${(v * 1000).toFixed(1)} ms`],
] as const;

interface ServiceState {
  health: string;
  figures: Record<string, number>;
}

const ServiceCard = ({ name, title }: { name: Service; title: string }) => {
  const [state, setState] = useState<ServiceState | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const load = async () => {
      const health = await rest(name, '/health', Health).then(
        (h) => h.status,
        (e: unknown) => `down: ${describeError(e)}`,
      );
      const figures = await restText(name, '/metrics').then(
        (t) =>
          metricSums(
            t,
            FIGURES.map((f) => f[0]),
          ),
        (e: unknown) => {
          setError(e);
          return {};
        },
      );
      setState({ health, figures });
    };
    void load();
  }, [name]);
  return (
    <article class="card" aria-label={title}>
      <h3>{title}</h3>
      {!state && <p>Asking…</p>}
      {state && (
        <>
          <p class={state.health === 'ok' ? 'ok' : 'error'}>health: {state.health}</p>
          <dl>
            {FIGURES.filter(([k]) => state.figures[k] !== undefined).map(([k, label, fmt]) => (
              <div key={k}>
                <dt>{label}</dt>
                <dd>{fmt(state.figures[k]!)}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <ErrorNote error={error} />
    </article>
  );
};

/** Work that failed and can be sent again through the public APIs: extraction tasks and policy revisions. */
const Failed = () => {
  const [tasks, setTasks] = useState<z.infer<typeof ExtractionTaskListSchema>['tasks']>([]);
  const [revisions, setRevisions] = useState<
    { source: string; revision_id: string; version_label: string; error: string | null }[]
  >([]);
  const [counts, setCounts] = useState<{ queued: number; running: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const load = async () => {
      try {
        const [failed, queued, running] = await Promise.all(
          (['failed', 'queued', 'running'] as const).map((s) =>
            rest('extraction', `/tasks?status=${s}&limit=200`, ExtractionTaskListSchema),
          ),
        );
        setTasks(failed!.tasks);
        setCounts({ queued: queued!.tasks.length, running: running!.tasks.length });
        const { policies } = await rest('policies', '/api/policies', PolicyListResponseSchema);
        const details = await Promise.all(
          policies.map((p) =>
            rest('policies', `/api/policies/${encodeURIComponent(p.source)}`, PolicyDetailResponseSchema),
          ),
        );
        setRevisions(details.flatMap((d) => d.revisions.filter((r) => r.status === 'failed')));
      } catch (err) {
        setError(err);
      }
    };
    void load();
  }, []);
  return (
    <>
      <ErrorNote error={error} />
      {counts && (
        <p>
          Extraction queue: {counts.queued} queued, {counts.running} running, {tasks.length} failed.
        </p>
      )}
      <ul aria-label="Failed work">
        {tasks.map((t) => (
          <li key={t.task_id}>
            extraction task {t.original_filename} ({t.task_id}): {t.error?.message ?? 'failed'}
          </li>
        ))}
        {revisions.map((r) => (
          <li key={r.revision_id}>
            policy revision {r.version_label} of {r.source}: {r.error ?? 'failed'} (upload it again from Policies)
          </li>
        ))}
        {tasks.length + revisions.length === 0 && <li>No failed work.</li>}
      </ul>
    </>
  );
};

const Models = () => {
  const [projects, setProjects] = useState<z.infer<typeof ListProjectsOutput> | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    callTool('documents', 'list_projects', {}, ListProjectsOutput)
      .then(({ data }) => setProjects(data))
      .catch(setError);
  }, []);
  return (
    <>
      <ErrorNote error={error} />
      {projects && (
        <table>
          <caption>Embedding model of each project</caption>
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Model</th>
              <th scope="col">Hybrid</th>
              <th scope="col">Chunks</th>
            </tr>
          </thead>
          <tbody>
            {projects.projects.map((p) => (
              <tr key={p.project}>
                <td>{p.project}</td>
                <td>{p.embedding_model}</td>
                <td>{p.hybrid_enabled ? 'yes' : 'no'}</td>
                <td>{p.points_count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
};

export const SystemPage = () => (
  <>
    <Section title="Services">
      <div class="cards">
        {SERVICES.map((s) => (
          <ServiceCard key={s.name} name={s.name} title={s.title} />
        ))}
      </div>
    </Section>
    <Section title="Queues and failed work">
      <Failed />
    </Section>
    <Section title="Models">
      <Models />
    </Section>
  </>
);
