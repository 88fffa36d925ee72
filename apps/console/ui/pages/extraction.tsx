// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ExtractionResultSchema,
  ExtractionTaskCreatedSchema,
  ExtractionTaskListSchema,
  ExtractionTaskStatusSchema,
} from '@lectern/contracts';
import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import { rest, upload } from '../api.js';
import { ErrorNote, PageView, Progress, Section } from '../components.js';

type Result = z.infer<typeof ExtractionResultSchema>;
type Status = z.infer<typeof ExtractionTaskStatusSchema>;

/** An evidence leaf as the extraction API may send it (every field read defensively). */
interface Leaf {
  snippet?: string | null;
  locator?: string | null;
  warning?: string;
  grounded?: boolean;
  page?: number;
  quads?: number[][];
  page_width?: number;
  page_height?: number;
  confidence?: number;
  match?: string;
}

const SAVED = 'lectern.console.schemas';
const savedSchemas = (): Record<string, string> => {
  try {
    const v = JSON.parse(localStorage.getItem(SAVED) ?? '{}') as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
};

const isLeaf = (v: unknown): v is Leaf =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && ('snippet' in v || 'locator' in v || 'grounded' in v);

const show = (v: unknown): string =>
  v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The result as a tree: groups open, each value with its evidence; a click on a value opens its page. */
const Tree = ({
  data,
  evidence,
  path,
  onPick,
}: {
  data: unknown;
  evidence: unknown;
  path: string;
  onPick: (path: string, leaf: Leaf) => void;
}) => {
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    return (
      <ul class="tree">
        {Object.entries(data as Record<string, unknown>).map(([k, v]) => {
          const ev = (evidence as Record<string, unknown> | undefined)?.[k];
          const leafish = typeof v !== 'object' || v === null || Array.isArray(v) || isLeaf(ev);
          return (
            <li key={k}>
              {leafish ? (
                <Value name={k} value={v} leaf={isLeaf(ev) ? ev : undefined} path={`${path}${k}`} onPick={onPick} />
              ) : (
                <details open>
                  <summary>{k}</summary>
                  <Tree data={v} evidence={ev} path={`${path}${k}.`} onPick={onPick} />
                </details>
              )}
            </li>
          );
        })}
      </ul>
    );
  }
  return <span>{show(data)}</span>;
};

const Value = ({
  name,
  value,
  leaf,
  path,
  onPick,
}: {
  name: string;
  value: unknown;
  leaf: Leaf | undefined;
  path: string;
  onPick: (path: string, leaf: Leaf) => void;
}) => {
  const ungrounded = leaf !== undefined && leaf.grounded === false;
  const canOpen = leaf?.page !== undefined;
  return (
    <div class={`value${ungrounded ? ' ungrounded' : ''}${leaf?.warning ? ' warned' : ''}`}>
      <span class="key">{name}</span>{' '}
      {canOpen ? (
        <button type="button" class="link" onClick={() => onPick(path, leaf)}>
          {show(value)}
        </button>
      ) : (
        <span class="val">{show(value)}</span>
      )}
      {ungrounded && <span class="badge badge-failed">not found in the document</span>}
      {leaf?.page !== undefined && <span class="muted"> · p. {leaf.page}</span>}
      {typeof leaf?.confidence === 'number' && <span class="muted"> · confidence {leaf.confidence.toFixed(2)}</span>}
      {leaf?.warning && <span class="warning"> · warning: {leaf.warning}</span>}
    </div>
  );
};

const Task = ({ taskId, onSettled }: { taskId: string; onSettled: () => void }) => {
  const [status, setStatus] = useState<Status | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [picked, setPicked] = useState<{ path: string; leaf: Leaf } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let stopped = false;
    setStatus(null);
    setResult(null);
    setPicked(null);
    const poll = async () => {
      try {
        while (!stopped) {
          const s = await rest('extraction', `/tasks/${taskId}`, ExtractionTaskStatusSchema);
          if (stopped) return;
          setStatus(s);
          if (s.status === 'succeeded') {
            setResult(await rest('extraction', `/tasks/${taskId}/result`, ExtractionResultSchema));
            return onSettled();
          }
          if (s.status === 'failed') return onSettled();
          await new Promise((r) => setTimeout(r, 700));
        }
      } catch (err) {
        if (!stopped) setError(err);
      }
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [taskId]);
  const p = status?.progress;
  return (
    <Section title={`Task ${taskId}`}>
      <ErrorNote error={error} />
      {status && (
        <p role="status">
          {status.original_filename}: <strong>{status.status}</strong> ({status.extractor})
          {p && status.status === 'running' ? ` · ${p.stage}` : ''}
        </p>
      )}
      {status?.status === 'running' && p?.fields_total ? (
        <Progress
          label={`Fields ${p.fields_done ?? 0} of ${p.fields_total}`}
          value={p.fields_done ?? 0}
          max={p.fields_total}
        />
      ) : null}
      {status?.error && (
        <p class="error" role="alert">
          {status.error.message}
          {status.error.details.length > 0 && ` (${status.error.details.join('; ')})`}
        </p>
      )}
      {result && (
        <div class="split">
          <div>
            {result.warnings.length > 0 && (
              <ul class="warnings" aria-label="Warnings">
                {result.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            )}
            <Tree
              data={result.data}
              evidence={result.evidence}
              path=""
              onPick={(path, leaf) => setPicked({ path, leaf })}
            />
          </div>
          {picked && picked.leaf.page !== undefined && (
            <div aria-label="Evidence">
              <h3>{picked.path}</h3>
              {picked.leaf.snippet && <blockquote>{picked.leaf.snippet}</blockquote>}
              <PageView
                service="extraction"
                path={`/tasks/${taskId}/pages/${picked.leaf.page}.png`}
                label={`Page ${picked.leaf.page} of ${status?.original_filename ?? 'the document'}`}
                quads={picked.leaf.quads ?? []}
                {...(picked.leaf.page_width && picked.leaf.page_height
                  ? { pageSize: { width: picked.leaf.page_width, height: picked.leaf.page_height } }
                  : {})}
              />
            </div>
          )}
        </div>
      )}
    </Section>
  );
};

export const ExtractionPage = ({ taskId, onTask }: { taskId: string; onTask: (id: string) => void }) => {
  const [file, setFile] = useState<File | null>(null);
  const [schema, setSchema] = useState('{\n  "rated_current": ""\n}');
  const [name, setName] = useState('');
  const [saved, setSaved] = useState(savedSchemas);
  const [sent, setSent] = useState<{ value: number; max: number } | null>(null);
  const [tasks, setTasks] = useState<z.infer<typeof ExtractionTaskListSchema> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const loadTasks = () => {
    rest('extraction', '/tasks?limit=10', ExtractionTaskListSchema).then(setTasks).catch(setError);
  };
  useEffect(loadTasks, [taskId]);
  const save = () => {
    if (!name) return;
    const next = { ...saved, [name]: schema };
    localStorage.setItem(SAVED, JSON.stringify(next));
    setSaved(next);
  };
  const run = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setError(null);
    try {
      const form = new FormData();
      form.append('schema', schema);
      form.append('file', file, file.name);
      const created = await upload('extraction', '/tasks', form, ExtractionTaskCreatedSchema, (p) =>
        setSent({ value: p.loaded, max: p.total || file.size }),
      );
      onTask(created.task_id);
    } catch (err) {
      setError(err);
    } finally {
      setSent(null);
    }
  };
  return (
    <>
      <Section title="New extraction">
        <form onSubmit={run} aria-label="New extraction">
          <label>
            Document
            <input
              type="file"
              accept=".pdf,.docx,.md,.txt,.html"
              onChange={(e) => setFile((e.currentTarget.files ?? [])[0] ?? null)}
              required
            />
          </label>
          {Object.keys(saved).length > 0 && (
            <label>
              Saved schema
              <select onChange={(e) => setSchema(saved[e.currentTarget.value] ?? schema)}>
                <option value="">(pick one)</option>
                {Object.keys(saved).map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            Schema (a JSON skeleton of the fields to extract)
            <textarea rows={6} value={schema} onInput={(e) => setSchema(e.currentTarget.value)} />
          </label>
          <label>
            Save the schema as
            <input type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <button type="button" onClick={save} disabled={!name}>
            Save schema
          </button>
          <button type="submit" disabled={sent !== null}>
            Extract
          </button>
          {sent && <Progress label="Uploading" value={sent.value} max={sent.max} />}
          <ErrorNote error={error} />
        </form>
      </Section>
      {taskId && <Task taskId={taskId} onSettled={loadTasks} />}
      {tasks && tasks.tasks.length > 0 && (
        <Section title="Recent tasks">
          <ul>
            {tasks.tasks.map((t) => (
              <li key={t.task_id}>
                <button type="button" class="link" onClick={() => onTask(t.task_id)}>
                  {t.original_filename}
                </button>{' '}
                <span class={`badge badge-${t.status}`}>{t.status}</span> <span class="muted">{t.created_at}</span>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
};
