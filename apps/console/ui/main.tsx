// SPDX-License-Identifier: AGPL-3.0-or-later
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { apiKey, onUnauthorized, resetClients } from './api.js';
import { fetchAuth, finishSignIn, startSignIn, type ConsoleAuth } from './oauth.js';
import { DocumentsPage, DocumentView } from './pages/documents.js';
import { ExtractionPage } from './pages/extraction.js';
import { PoliciesPage } from './pages/policies.js';
import { SearchPage } from './pages/search.js';
import { SystemPage } from './pages/system.js';
import { href, useRoute } from './router.js';

const PAGES = [
  ['documents', 'Documents'],
  ['search', 'Search'],
  ['policies', 'Policies'],
  ['extraction', 'Extraction'],
  ['system', 'System'],
] as const;

/** The bearer key, asked once per browser session (empty when the services run without one). */
const KeyForm = ({ onDone, refused }: { onDone: () => void; refused: boolean }) => {
  const [value, setValue] = useState('');
  return (
    <main id="main">
      <h1>Lectern console</h1>
      <form
        aria-label="API key"
        onSubmit={(e) => {
          e.preventDefault();
          apiKey.set(value);
          resetClients();
          onDone();
        }}
      >
        {refused && (
          <p class="error" role="alert">
            The services refused that key. Enter it again.
          </p>
        )}
        <label>
          API key (MCP_API_KEY; leave empty when the services run without one)
          <input type="password" autoComplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </label>
        <button type="submit">Continue</button>
        <p class="muted">Kept in this browser tab only (sessionStorage), sent to the services through the console.</p>
      </form>
    </main>
  );
};

type OAuthClient = Extract<ConsoleAuth, { mode: 'oauth' }>;

/** OAuth mode: the sign-in button (the issuer's page, then back here with a token for this tab). */
const SignInForm = ({ client, problem }: { client: OAuthClient; problem: string | null }) => {
  const [busy, setBusy] = useState(false);
  return (
    <main id="main">
      <h1>Lectern console</h1>
      <form
        aria-label="Sign in"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          void startSignIn(client);
        }}
      >
        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
        <p>The services ask for an OAuth sign-in.</p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p class="muted">
          The access token is kept in this browser tab only (sessionStorage), sent to the services through the console.
        </p>
      </form>
    </main>
  );
};

const App = () => {
  const [auth, setAuth] = useState<ConsoleAuth | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const start = async () => {
      const found = await fetchAuth();
      if (found.mode === 'oauth') {
        try {
          if (await finishSignIn(found)) resetClients();
        } catch (error) {
          setProblem(error instanceof Error ? error.message : String(error));
        }
      }
      setAuth(found);
    };
    start().catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
  }, []);
  if (!auth)
    return (
      <main id="main">
        <h1>Lectern console</h1>
        {problem ? (
          <p class="error" role="alert">
            {problem}
          </p>
        ) : (
          <p aria-live="polite">Starting…</p>
        )}
      </main>
    );
  return <Console auth={auth} problem={problem} />;
};

const Console = ({ auth, problem }: { auth: ConsoleAuth; problem: string | null }) => {
  const route = useRoute();
  const [hasKey, setHasKey] = useState(apiKey.get() !== null);
  const [refused, setRefused] = useState(false);
  useEffect(
    () =>
      onUnauthorized(() => {
        apiKey.clear();
        resetClients();
        setRefused(true);
        setHasKey(false);
      }),
    [],
  );
  useEffect(() => {
    const title = PAGES.find(([p]) => p === route.page)?.[1] ?? 'Document';
    document.title = `${title} · Lectern console`;
  }, [route.page]);
  if (!hasKey && auth.mode === 'oauth')
    return (
      <SignInForm
        client={auth}
        problem={refused ? 'The services refused the sign-in (expired or not allowed). Sign in again.' : problem}
      />
    );
  if (!hasKey) return <KeyForm refused={refused} onDone={() => setHasKey(true)} />;
  const p = route.params;
  const page = (() => {
    switch (route.page) {
      case 'search':
        return <SearchPage />;
      case 'policies':
        return <PoliciesPage key={p.get('source') ?? ''} initialSource={p.get('source') ?? ''} />;
      case 'extraction':
        return (
          <ExtractionPage
            taskId={p.get('task') ?? ''}
            onTask={(id) => (location.hash = href('extraction', { task: id }))}
          />
        );
      case 'system':
        return <SystemPage />;
      case 'document':
        return (
          <DocumentView
            documentId={p.get('id') ?? ''}
            page={Math.max(1, Number(p.get('page') ?? 1) || 1)}
            {...(p.get('highlight') ? { highlight: p.get('highlight')! } : {})}
            {...(p.get('project') ? { project: p.get('project')! } : {})}
          />
        );
      default:
        return <DocumentsPage key={p.get('ref') ?? ''} initialRef={p.get('ref') ?? ''} />;
    }
  })();
  return (
    <>
      <header>
        <a class="skip" href="#main">
          Skip to the page
        </a>
        <span class="brand">Lectern console</span>
        <nav aria-label="Pages">
          {PAGES.map(([id, label]) => (
            <a key={id} href={href(id)} aria-current={route.page === id ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <button
          type="button"
          onClick={() => {
            apiKey.clear();
            resetClients();
            setRefused(false);
            setHasKey(false);
          }}
        >
          {auth.mode === 'oauth' ? 'Sign out' : 'Change key'}
        </button>
      </header>
      <main id="main">
        <h1>{PAGES.find(([id]) => id === route.page)?.[1] ?? 'Document'}</h1>
        {page}
      </main>
    </>
  );
};

render(<App />, document.getElementById('app')!);
