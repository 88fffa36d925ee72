// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  GetPolicySectionOutput,
  PolicyCategorySchema,
  PolicyDetailResponseSchema,
  PolicyListResponseSchema,
  PolicyRevisionSchema,
  PolicySchema,
  RevisionAcceptedResponseSchema,
  SearchPolicyOutput,
} from '@lectern/contracts';
import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import { callTool, rest, upload } from '../api.js';
import { ErrorNote, Progress, Section, bytes } from '../components.js';

type Detail = z.infer<typeof PolicyDetailResponseSchema>;
type Revision = z.infer<typeof PolicyRevisionSchema>;

const DAY = 86_400_000;
const dayOf = (s: string) => Date.parse(`${s}T00:00:00Z`);

/** Revisions oldest first, each a bar from effective_from to effective_to (open-ended: to today) on one axis. */
const Timeline = ({ revisions }: { revisions: Revision[] }) => {
  const sorted = [...revisions].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
  if (sorted.length === 0) return <p>No revisions yet.</p>;
  const today = Date.now();
  const start = dayOf(sorted[0]!.effective_from);
  const end = Math.max(today, ...sorted.map((r) => (r.effective_to ? dayOf(r.effective_to) + DAY : today)));
  const span = Math.max(DAY, end - start);
  return (
    <ol class="timeline" aria-label="Revisions, oldest first">
      {sorted.map((r) => {
        const from = dayOf(r.effective_from);
        const to = r.effective_to ? dayOf(r.effective_to) + DAY : end;
        return (
          <li key={r.revision_id} class={`revision revision-${r.status}`} data-revision={r.revision_id}>
            <div class="revision-head">
              <strong>{r.version_label}</strong> <span class={`badge badge-${r.status}`}>{r.status}</span>
            </div>
            <div class="revision-dates">
              in force <time>{r.effective_from}</time> to{' '}
              {r.effective_to ? <time>{r.effective_to}</time> : 'now (open-ended)'}
            </div>
            <div class="muted">
              {r.chunk_count} chunks{r.page_count != null ? ` · ${r.page_count} pages` : ''} · {r.revision_id}
              {r.error ? ` · error: ${r.error}` : ''}
            </div>
            <div class="bar-track" aria-hidden="true">
              <span
                class="bar"
                style={{
                  left: `${((from - start) / span) * 100}%`,
                  width: `${Math.max(0.5, ((to - from) / span) * 100)}%`,
                }}
              />
            </div>
          </li>
        );
      })}
    </ol>
  );
};

const RevisionUpload = ({
  source,
  before,
  onChanged,
}: {
  source: string;
  before: Revision[];
  onChanged: () => Promise<Revision[]>;
}) => {
  const [file, setFile] = useState<File | null>(null);
  const [label, setLabel] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [status, setStatus] = useState<{ label: string; value: number; max: number } | null>(null);
  const [outcome, setOutcome] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setError(null);
    setOutcome([]);
    try {
      const form = new FormData();
      form.append('version_label', label);
      form.append('effective_from', from);
      if (to) form.append('effective_to', to);
      form.append('file', file, file.name);
      const accepted = await upload(
        'policies',
        `/api/policies/${encodeURIComponent(source)}/revisions`,
        form,
        RevisionAcceptedResponseSchema,
        (p) => setStatus({ label: `Uploading ${bytes(p.loaded)}`, value: p.loaded, max: p.total || file.size }),
      );
      const id = accepted.revision.revision_id;
      let revision = accepted.revision;
      while (revision.status === 'processing') {
        setStatus({ label: 'Ingesting (converting, sectioning, embedding)', value: 0, max: 0 });
        await new Promise((r) => setTimeout(r, 700));
        revision = await rest(
          'policies',
          `/api/policies/${encodeURIComponent(source)}/revisions/${encodeURIComponent(id)}`,
          PolicyRevisionSchema,
        );
      }
      const after = await onChanged();
      const lines = [
        `${revision.version_label} is ${revision.status}: ${revision.chunk_count} chunks${revision.error ? `, error: ${revision.error}` : ''}.`,
      ];
      for (const old of before) {
        const now = after.find((r) => r.revision_id === old.revision_id);
        if (now && (now.effective_to !== old.effective_to || now.status !== old.status))
          lines.push(
            `${old.version_label} is now ${now.status}, in force until ${now.effective_to ?? 'open-ended'} (was ${old.status}, until ${old.effective_to ?? 'open-ended'}).`,
          );
      }
      setOutcome(lines);
    } catch (err) {
      setError(err);
    } finally {
      setStatus(null);
    }
  };
  return (
    <form onSubmit={run} aria-label="Upload a new revision">
      <label>
        Revision file
        <input
          type="file"
          accept=".pdf,.docx"
          onChange={(e) => setFile((e.currentTarget.files ?? [])[0] ?? null)}
          required
        />
      </label>
      <label>
        Version label
        <input type="text" value={label} onInput={(e) => setLabel(e.currentTarget.value)} required />
      </label>
      <label>
        In force from
        <input type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} required />
      </label>
      <label>
        In force until (optional)
        <input type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={status !== null}>
        Upload revision
      </button>
      {status && <Progress label={status.label} value={status.value} max={status.max} />}
      {outcome.length > 0 && (
        <div role="status">
          <ul class="supersession">
            {outcome.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </div>
      )}
      <ErrorNote error={error} />
    </form>
  );
};

const InForce = ({ source }: { source: string }) => {
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<z.infer<typeof SearchPolicyOutput> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setAnswer(
        (
          await callTool(
            'policies',
            'search_policy',
            { query, sources: [source], effective_date: date, n_results: 5 },
            SearchPolicyOutput,
          )
        ).data,
      );
    } catch (err) {
      setError(err);
      setAnswer(null);
    }
  };
  return (
    <form onSubmit={run} aria-label="Search as in force on a date">
      <label>
        As in force on
        <input type="date" value={date} onInput={(e) => setDate(e.currentTarget.value)} required />
      </label>
      <label>
        Search the policy for
        <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} required />
      </label>
      <button type="submit">Search as in force</button>
      <ErrorNote error={error} />
      {answer && (
        <ol class="results" aria-label="Policy results">
          {answer.results.length === 0 && <li>Nothing in force on {answer.effective_date} matches.</li>}
          {answer.results.map((r) => (
            <li key={r.chunk_id} class="result">
              <p class="citation">
                {r.section_ref || 'no section'} · {r.version_label} · p. {r.page_number}
              </p>
              <blockquote>{r.text}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </form>
  );
};

const SectionLookup = ({ source }: { source: string }) => {
  const [ref, setRef] = useState('');
  const [answer, setAnswer] = useState<z.infer<typeof GetPolicySectionOutput> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setAnswer(
        (await callTool('policies', 'get_policy_section', { source, section_ref: ref }, GetPolicySectionOutput)).data,
      );
    } catch (err) {
      setAnswer(null);
      setError(err);
    }
  };
  return (
    <form onSubmit={run} aria-label="Look up a section">
      <label>
        Section (e.g. Para 11, Chapter 5)
        <input type="text" value={ref} onInput={(e) => setRef(e.currentTarget.value)} required />
      </label>
      <button type="submit">Look up</button>
      <ErrorNote error={error} />
      {answer && (
        <div class="section-text">
          <p class="citation">
            {answer.section_ref} · {answer.version_label} · pages {answer.page_numbers.join(', ')}
          </p>
          <pre class="chunk-text">{answer.text}</pre>
        </div>
      )}
    </form>
  );
};

const RegisterPolicy = ({ onDone }: { onDone: (source: string) => void }) => {
  const [source, setSource] = useState('');
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<string>('national_policy');
  const [error, setError] = useState<unknown>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const created = await rest('policies', '/api/policies', PolicySchema, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source, title, category }),
      });
      onDone(created.source);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form onSubmit={run} aria-label="Register a policy">
      <label>
        Source (slug)
        <input type="text" value={source} onInput={(e) => setSource(e.currentTarget.value)} required />
      </label>
      <label>
        Title
        <input type="text" value={title} onInput={(e) => setTitle(e.currentTarget.value)} required />
      </label>
      <label>
        Category
        <select value={category} onChange={(e) => setCategory(e.currentTarget.value)}>
          {PolicyCategorySchema.options.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Register policy</button>
      <ErrorNote error={error} />
    </form>
  );
};

export const PoliciesPage = ({ initialSource }: { initialSource: string }) => {
  const [list, setList] = useState<z.infer<typeof PolicyListResponseSchema> | null>(null);
  const [source, setSource] = useState(initialSource);
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const loadList = () => rest('policies', '/api/policies', PolicyListResponseSchema).then(setList).catch(setError);
  const loadDetail = async (s: string): Promise<Revision[]> => {
    const d = await rest('policies', `/api/policies/${encodeURIComponent(s)}`, PolicyDetailResponseSchema);
    setDetail(d);
    return d.revisions;
  };
  useEffect(() => void loadList(), []);
  useEffect(() => {
    setDetail(null);
    if (source) loadDetail(source).catch(setError);
  }, [source]);
  return (
    <>
      <Section title="Policies">
        <ErrorNote error={error} />
        {list && (
          <ul class="policy-list">
            {list.policies.length === 0 && <li>No policies registered.</li>}
            {list.policies.map((p) => (
              <li key={p.source}>
                <button type="button" aria-pressed={p.source === source} onClick={() => setSource(p.source)}>
                  {p.title}{' '}
                  <span class="muted">
                    ({p.source}, {p.category})
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <details>
          <summary>Register a policy</summary>
          <RegisterPolicy
            onDone={(s) => {
              void loadList();
              setSource(s);
            }}
          />
        </details>
      </Section>
      {detail && (
        <>
          <Section title={`${detail.title}: revisions`}>
            <Timeline revisions={detail.revisions} />
          </Section>
          <Section title="As in force on a date">
            <InForce source={detail.source} />
          </Section>
          <Section title="Section lookup">
            <SectionLookup source={detail.source} />
          </Section>
          <Section title="Upload a new revision">
            <RevisionUpload
              source={detail.source}
              before={detail.revisions}
              onChanged={() => loadDetail(detail.source)}
            />
          </Section>
        </>
      )}
    </>
  );
};
