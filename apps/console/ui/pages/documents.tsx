// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  DeleteDocumentOutput,
  GetDocumentTextOutput,
  IngestDocumentOutput,
  IngestUploadResultSchema,
  ListIngestedDocumentsOutput,
} from '@lectern/contracts';
import { useEffect, useState } from 'preact/hooks';
import { z } from 'zod';
import { callTool, upload } from '../api.js';
import { ErrorNote, PageView, Progress, Section, bytes } from '../components.js';
import { href } from '../router.js';

type Ingested = z.infer<typeof IngestDocumentOutput>;
/** document-store-mcp's `GET /api/documents/{id}/pages/{page}/quads` answer. */
const PageQuadsSchema = z.object({
  page_width: z.number(),
  page_height: z.number(),
  quads: z.array(z.array(z.number())),
});
type Listing = z.infer<typeof ListIngestedDocumentsOutput>;

const Outcome = ({ result }: { result: Ingested }) => (
  <p class={`outcome outcome-${result.status}`} role="status">
    {result.status === 'success' &&
      `Ingested ${result.document_id ?? ''}: ${result.chunks_created ?? 0} chunks (${result.extraction_method ?? ''}).`}
    {result.status === 'already_ingested' && `Already ingested as ${result.document_id ?? ''}.`}
    {result.status === 'skipped' &&
      `Skipped: ${result.message ?? 'not ingested'}${result.reason ? ` (reason: ${result.reason})` : ''}.`}
  </p>
);

/** Upload a file (bytes progress), or ingest one already inside the server's document roots (live stages). */
const IngestForm = ({ appRef, project, onDone }: { appRef: string; project: string; onDone: () => void }) => {
  const scope = project ? { project } : {};
  const [file, setFile] = useState<File | null>(null);
  const [path, setPath] = useState('');
  const [type, setType] = useState('');
  const [status, setStatus] = useState<{ label: string; value: number; max: number } | null>(null);
  const [result, setResult] = useState<Ingested | null>(null);
  const [error, setError] = useState<unknown>(null);
  const busy = status !== null;
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setResult(null);
    try {
      if (file) {
        const form = new FormData();
        form.append('application_ref', appRef);
        if (project) form.append('project', project);
        if (type) form.append('document_type', type);
        form.append('file', file, file.name);
        setStatus({ label: 'Uploading', value: 0, max: file.size });
        const answer = await upload('documents', '/api/documents', form, IngestUploadResultSchema, (p) =>
          setStatus(
            p.loaded >= (p.total || file.size)
              ? { label: 'Converting, embedding and storing', value: 0, max: 0 }
              : {
                  label: `Uploading ${bytes(p.loaded)} of ${bytes(p.total || file.size)}`,
                  value: p.loaded,
                  max: p.total || file.size,
                },
          ),
        );
        setResult(answer);
      } else {
        setStatus({ label: 'Starting', value: 0, max: 0 });
        const { data } = await callTool(
          'documents',
          'ingest_document',
          { file_path: path, application_ref: appRef, ...scope, ...(type ? { document_type: type } : {}) },
          IngestDocumentOutput,
          (p) => setStatus({ label: p.message ?? 'Working', value: p.progress, max: p.total ?? 0 }),
        );
        setResult(data);
      }
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setStatus(null);
    }
  };
  return (
    <form onSubmit={run} aria-label="Ingest a document">
      <label>
        File to upload
        <input
          type="file"
          accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.docx"
          onChange={(e) => setFile((e.currentTarget.files ?? [])[0] ?? null)}
        />
      </label>
      <label>
        or a file already on the server (absolute path inside its document roots)
        <input type="text" value={path} onInput={(e) => setPath(e.currentTarget.value)} disabled={file !== null} />
      </label>
      <label>
        Document type (optional)
        <input type="text" value={type} onInput={(e) => setType(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={busy || !appRef || (!file && !path)}>
        Ingest
      </button>
      {status && <Progress label={status.label} value={status.value} max={status.max} />}
      {result && <Outcome result={result} />}
      <ErrorNote error={error} />
    </form>
  );
};

/** A document's pages, drawn by document-store-mcp, with the text of the chunks on each page beside it. */
export const DocumentView = ({
  documentId,
  page,
  highlight,
  project,
}: {
  documentId: string;
  page: number;
  highlight?: string;
  project?: string;
}) => {
  const scope = project ? { project } : {};
  const projectQuery = project ? `project=${encodeURIComponent(project)}` : '';
  const [text, setText] = useState<z.infer<typeof GetDocumentTextOutput> | null>(null);
  // the boxes carry the page they were found on: on a page change they are not drawn over the next page's image
  // in the render before the effect below clears them
  const [quads, setQuads] = useState<{ page: number; quads: number[][]; width: number; height: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setText(null);
    setError(null);
    callTool(
      'documents',
      'get_document_text',
      { document_id: documentId, page_from: page, page_to: page, ...scope },
      GetDocumentTextOutput,
    )
      .then(({ data }) => setText(data))
      .catch(setError);
  }, [documentId, page, project]);
  useEffect(() => {
    setQuads(null);
    if (!highlight) return;
    let stale = false;
    const key = sessionStorage.getItem('lectern.console.key');
    // A passage may run over two pages: each of its lines is looked for on this page, and the boxes of the lines
    // found here are drawn (the whole passage is one search when it has a single line).
    const lines = highlight
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length >= 3)
      .slice(0, 12);
    void Promise.all(
      lines.map((line) =>
        fetch(
          `/svc/documents/api/documents/${encodeURIComponent(documentId)}/pages/${page}/quads?highlight=${encodeURIComponent(line.slice(0, 1000))}${projectQuery ? `&${projectQuery}` : ''}`,
          { headers: key ? { authorization: `Bearer ${key}` } : {} },
        )
          .then((r) => (r.ok ? (r.json() as Promise<unknown>) : null))
          .catch(() => null),
      ),
    ).then((answers) => {
      if (stale) return;
      const found = answers.map((a) => PageQuadsSchema.safeParse(a)).flatMap((p) => (p.success ? [p.data] : []));
      if (found.length > 0)
        setQuads({
          page,
          quads: found.flatMap((f) => f.quads),
          width: found[0]!.page_width,
          height: found[0]!.page_height,
        });
    });
    return () => {
      stale = true;
    };
  }, [documentId, page, highlight, projectQuery]);
  const id = encodeURIComponent(documentId);
  return (
    <Section title={`Document ${documentId}, page ${page}`}>
      <nav aria-label="Pages" class="pager">
        {page > 1 && (
          <a href={href('document', { id: documentId, page: page - 1, project, highlight })}>Previous page</a>
        )}
        <a href={href('document', { id: documentId, page: page + 1, project, highlight })}>Next page</a>
      </nav>
      <div class="split">
        <PageView
          service="documents"
          path={`/api/documents/${id}/pages/${page}.png${projectQuery ? `?${projectQuery}` : ''}`}
          label={`Page ${page} of ${documentId}`}
          {...(quads && quads.page === page
            ? { quads: quads.quads, pageSize: { width: quads.width, height: quads.height } }
            : {})}
        />
        <div class="chunks" aria-label="Chunks on this page">
          <h3>Chunks on page {page}</h3>
          <ErrorNote error={error} />
          {text && (
            <p class="muted">
              {text.chunk_count} chunk(s) · {text.document_type}
            </p>
          )}
          {text && <pre class="chunk-text">{text.text}</pre>}
        </div>
      </div>
    </Section>
  );
};

export const DocumentsPage = ({ initialRef }: { initialRef: string }) => {
  const [appRef, setAppRef] = useState(initialRef);
  const [shown, setShown] = useState(initialRef);
  // a spec 004 project (empty: the server's default one)
  const [project, setProject] = useState('');
  const [shownProject, setShownProject] = useState('');
  const scope = shownProject ? { project: shownProject } : {};
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  const load = (ref: string) => {
    setError(null);
    if (!ref) return setListing(null);
    callTool('documents', 'list_ingested_documents', { application_ref: ref, ...scope }, ListIngestedDocumentsOutput)
      .then(({ data }) => setListing(data))
      .catch(setError);
  };
  useEffect(() => load(shown), [shown, shownProject]);
  const remove = async (id: string) => {
    if (!confirm(`Delete ${id} and its chunks?`)) return;
    try {
      const { data } = await callTool(
        'documents',
        'delete_document',
        { document_id: id, ...scope },
        DeleteDocumentOutput,
      );
      setNote(`Deleted ${data.document_id}: ${data.chunks_deleted} chunks removed.`);
      load(shown);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <Section title="Application">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setShown(appRef.trim());
            setShownProject(project.trim());
          }}
        >
          <label>
            Application reference
            <input
              type="text"
              value={appRef}
              onInput={(e) => setAppRef(e.currentTarget.value)}
              placeholder="25/01178/REM"
            />
          </label>
          <label>
            Project (optional)
            <input type="text" value={project} onInput={(e) => setProject(e.currentTarget.value)} />
          </label>
          <button type="submit">Show documents</button>
        </form>
      </Section>
      {shown && (
        <Section title={`Documents of ${shown}${shownProject ? ` in project ${shownProject}` : ''}`}>
          <ErrorNote error={error} />
          {note && <p role="status">{note}</p>}
          {listing && (
            <table>
              <caption>{listing.document_count} document(s)</caption>
              <thead>
                <tr>
                  <th scope="col">Document</th>
                  <th scope="col">Type</th>
                  <th scope="col">Chunks</th>
                  <th scope="col">Text from</th>
                  <th scope="col">Ingested</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {listing.documents.map((d) => (
                  <tr key={d.document_id}>
                    <td>
                      <a href={href('document', { id: d.document_id, page: 1, project: shownProject })}>
                        {d.document_id}
                      </a>
                      <div class="muted">{d.file_path.split('/').pop()}</div>
                    </td>
                    <td>{d.document_type}</td>
                    <td>{d.chunk_count}</td>
                    <td>
                      {d.extraction_method}
                      {d.contains_drawings ? ' · drawings' : ''}
                    </td>
                    <td>{d.ingested_at}</td>
                    <td>
                      <button type="button" onClick={() => void remove(d.document_id)}>
                        Delete <span class="sr-only">{d.document_id}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Ingest a document into {shown}</h3>
          <IngestForm appRef={shown} project={shownProject} onDone={() => load(shown)} />
        </Section>
      )}
    </>
  );
};
