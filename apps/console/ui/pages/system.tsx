// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ExtractionTaskListSchema,
  FailedJobsPageSchema,
  ListProjectsOutput,
  PolicyDetailResponseSchema,
  PolicyListResponseSchema,
  QueueListResponseSchema,
  RetryJobResponseSchema,
  type FailedJob,
  type QueueDepth,
} from '@lectern/contracts';
import { useCallback, useEffect, useState } from 'preact/hooks';
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

/**
 * The values of one label over the samples of one metric, sorted, each once: the models of
 * `lectern_embedding_model_info{model="…"} 1` (label values are escaped as in the exposition format).
 */
export const metricLabelValues = (text: string, name: string, label: string): string[] => {
  const values = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const m = new RegExp(`[{,]${label}="((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    if (m) values.add(m[1]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c)));
  }
  return [...values].sort();
};

const EMBEDDING_MODEL_INFO = 'lectern_embedding_model_info';

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
  /** The embedding models the service has loaded (from `/metrics`). */
  models: string[];
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
      const { figures, models } = await restText(name, '/metrics').then(
        (t) => ({
          figures: metricSums(
            t,
            FIGURES.map((f) => f[0]),
          ),
          models: metricLabelValues(t, EMBEDDING_MODEL_INFO, 'model'),
        }),
        (e: unknown) => {
          setError(e);
          return { figures: {}, models: [] };
        },
      );
      setState({ health, figures, models });
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
            {state.models.length > 0 && (
              <div>
                <dt>embedding models</dt>
                <dd class="models">{state.models.join(', ')}</dd>
              </div>
            )}
          </dl>
        </>
      )}
      <ErrorNote error={error} />
    </article>
  );
};

/** Failed jobs listed per queue on the page (the API pages them; the rest are counted). */
const FAILED_SHOWN = 20;

interface ServiceQueues {
  service: Service;
  title: string;
  mode: string;
  queues: (QueueDepth & { jobs: FailedJob[] })[];
}

/**
 * Each service's queues through its admin queue API (`/admin/queues`, lectern:admin in OAuth mode): depths, the
 * failed jobs with their reason, and a Retry button per job (`POST …/jobs/:id/retry`). In distributed mode the
 * services share their queues in Redis, so the same failed job can be listed under more than one service.
 */
const Queues = () => {
  const [services, setServices] = useState<ServiceQueues[]>([]);
  const [errors, setErrors] = useState<{ title: string; error: unknown }[]>([]);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const load = useCallback(async () => {
    const found: ServiceQueues[] = [];
    const failed: { title: string; error: unknown }[] = [];
    for (const { name, title } of SERVICES) {
      try {
        const list = await rest(name, '/admin/queues', QueueListResponseSchema);
        const queues = await Promise.all(
          list.queues.map(async (q) => ({
            ...q,
            jobs:
              q.failed === 0
                ? []
                : (
                    await rest(
                      name,
                      `/admin/queues/${encodeURIComponent(q.queue)}/failed?limit=${FAILED_SHOWN}`,
                      FailedJobsPageSchema,
                    )
                  ).jobs,
          })),
        );
        found.push({ service: name, title, mode: list.mode, queues });
      } catch (error) {
        failed.push({ title, error });
      }
    }
    setServices(found);
    setErrors(failed);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const retry = async (service: Service, job: FailedJob) => {
    setBusy(`${service}/${job.queue}/${job.id}`);
    setNote(null);
    try {
      await rest(
        service,
        `/admin/queues/${encodeURIComponent(job.queue)}/jobs/${encodeURIComponent(job.id)}/retry`,
        RetryJobResponseSchema,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      );
      setNote({ ok: true, text: `Job ${job.id} of the ${job.queue} queue was sent again.` });
    } catch (error) {
      setNote({ ok: false, text: `Job ${job.id} was not sent again: ${describeError(error)}` });
    } finally {
      setBusy(null);
      await load();
    }
  };
  return (
    <>
      <div aria-live="polite">{note && <p class={note.ok ? 'ok' : 'error'}>{note.text}</p>}</div>
      <button type="button" onClick={() => void load()}>
        Refresh queues
      </button>
      {errors.map((e) => (
        <p key={e.title} class="error">
          {e.title} queues: {describeError(e.error)}
        </p>
      ))}
      {services.map((s) => (
        <div key={s.service} class="queues">
          <table>
            <caption>
              Queues of {s.title} ({s.mode})
            </caption>
            <thead>
              <tr>
                <th scope="col">Queue</th>
                <th scope="col">Queued</th>
                <th scope="col">Running</th>
                <th scope="col">Failed</th>
              </tr>
            </thead>
            <tbody>
              {s.queues.map((q) => (
                <tr key={q.queue}>
                  <td>{q.queue}</td>
                  <td>{q.queued}</td>
                  <td>{q.running}</td>
                  <td>{q.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {s.queues.some((q) => q.jobs.length > 0) && (
            <ul aria-label={`Failed jobs of ${s.title}`} class="failed-jobs">
              {s.queues.flatMap((q) =>
                q.jobs.map((job) => (
                  <li key={`${q.queue}/${job.id}`}>
                    <span>
                      {job.queue} job <code>{job.id}</code> failed {new Date(job.failed_at).toLocaleString()} after{' '}
                      {job.attempts} attempt(s): {job.error.message} ({job.error.code})
                      {job.error.http_status < 500 && (
                        <span class="muted">
                          {' '}
                          — the input was refused: a retry runs it again, but only a corrected file succeeds
                        </span>
                      )}
                    </span>{' '}
                    <button
                      type="button"
                      disabled={busy !== null}
                      aria-label={`Retry job ${job.id} of the ${job.queue} queue`}
                      onClick={() => void retry(s.service, job)}
                    >
                      Retry
                    </button>
                  </li>
                )),
              )}
            </ul>
          )}
        </div>
      ))}
    </>
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
    <Section title="Queues">
      <Queues />
    </Section>
    <Section title="Failed tasks and revisions">
      <Failed />
    </Section>
    <Section title="Models">
      <Models />
    </Section>
  </>
);
