import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { repoRoot } from '../paths.js';
import { containersOf, kustomizeBuild, type Manifest } from './kustomize.js';

/*
 * The deployment files, checked without a Docker engine or a cluster (neither exists here):
 * - docker-compose.yml against a strict zod model of the Compose specification's service keys it uses (unknown keys
 *   fail, as in the spec's JSON schema, where services have additionalProperties: false) and against the issue's
 *   rules (health checks, service_healthy, memory limits, no host port on scalable workers, a required key, ...);
 *   every build context and Dockerfile exists; every documented variable is passed through.
 * - deploy/k8s rendered by a minimal kustomize (./kustomize.ts) and every manifest checked against strict zod models
 *   of the Kubernetes 1.30 API objects it uses (apps/v1, v1, policy/v1, autoscaling/v2).
 * The official JSON schemas (compose-spec.json, kubernetes-json-schema) are not vendored: see docs/deploy-checks.md.
 */
const root = repoRoot();
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

// ---- Compose ---------------------------------------------------------------------------------------------------
const Healthcheck = z.strictObject({
  test: z.array(z.string()).min(2),
  interval: z.string().regex(/^\d+s$/),
  timeout: z.string().regex(/^\d+s$/),
  retries: z.number().int().positive(),
  start_period: z
    .string()
    .regex(/^\d+s$/)
    .optional(),
});
const ComposeService = z.strictObject({
  image: z.string().min(1),
  build: z.strictObject({ context: z.string(), dockerfile: z.string() }).optional(),
  command: z.array(z.string()).optional(),
  restart: z.enum(['no', 'always', 'on-failure', 'unless-stopped']),
  volumes: z.array(z.string().regex(/^[a-z-]+:\/[\w/]*$/)).optional(),
  mem_limit: z.literal('2g'),
  // a key without a value passes the variable through only when it is set (Compose's list_or_dict allows null)
  environment: z.record(z.string(), z.string().nullable()).optional(),
  ports: z.array(z.string()).optional(),
  depends_on: z.record(z.string(), z.strictObject({ condition: z.literal('service_healthy') })).optional(),
  healthcheck: Healthcheck,
  stop_grace_period: z.string().optional(),
});
const ComposeFile = z.strictObject({
  name: z.string(),
  'x-lectern': z.unknown(),
  'x-health': z.unknown(),
  services: z.record(z.string().regex(/^[a-zA-Z0-9._-]+$/), ComposeService),
  volumes: z.record(z.string(), z.strictObject({})),
});

describe('docker-compose.yml', () => {
  const text = read('docker-compose.yml');
  const compose = ComposeFile.parse(YAML.parse(text, { merge: true }));
  const services = compose.services;
  const lectern = Object.entries(services).filter(([, s]) => s.build);

  it('is a Compose file of the shape the specification allows (strict service keys, health checks, 2 GB limits)', () => {
    expect(Object.keys(services).sort()).toEqual([
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
const Labels = z.record(z.string(), z.string());
const Metadata = z.strictObject({
  name: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/),
  namespace: z.string().optional(),
  labels: Labels.optional(),
  annotations: Labels.optional(),
});
const Quantity = z.union([z.string().regex(/^\d+(\.\d+)?(m|Ki|Mi|Gi|Ti)?$/), z.number()]);
const Probe = z.strictObject({
  httpGet: z.strictObject({ path: z.string(), port: z.union([z.string(), z.number()]) }).optional(),
  exec: z.strictObject({ command: z.array(z.string()) }).optional(),
  initialDelaySeconds: z.number().int().optional(),
  periodSeconds: z.number().int().optional(),
  failureThreshold: z.number().int().optional(),
});
const EnvVar = z.strictObject({
  name: z.string(),
  value: z.string().optional(),
  valueFrom: z
    .strictObject({
      secretKeyRef: z.strictObject({ name: z.string(), key: z.string(), optional: z.boolean().optional() }),
    })
    .optional(),
});
const Container = z.strictObject({
  name: z.string(),
  image: z.string(),
  args: z.array(z.string()).optional(),
  ports: z.array(z.strictObject({ name: z.string().max(15), containerPort: z.number().int() })),
  envFrom: z.array(z.strictObject({ configMapRef: z.strictObject({ name: z.string() }) })).optional(),
  env: z.array(EnvVar).optional(),
  readinessProbe: Probe,
  livenessProbe: Probe,
  resources: z.strictObject({
    requests: z.strictObject({ cpu: Quantity, memory: Quantity }),
    limits: z.strictObject({ memory: Quantity, cpu: Quantity.optional() }),
  }),
  securityContext: z.strictObject({
    allowPrivilegeEscalation: z.literal(false),
    readOnlyRootFilesystem: z.boolean().optional(),
    capabilities: z.strictObject({ drop: z.array(z.string()) }),
  }),
  volumeMounts: z.array(z.strictObject({ name: z.string(), mountPath: z.string() })),
});
const PodSpec = z.strictObject({
  terminationGracePeriodSeconds: z.number().int().optional(),
  securityContext: z.strictObject({
    runAsNonRoot: z.literal(true),
    runAsUser: z.number().int().positive(),
    runAsGroup: z.number().int().positive(),
    fsGroup: z.number().int().positive(),
    fsGroupChangePolicy: z.enum(['OnRootMismatch', 'Always']).optional(),
    seccompProfile: z.strictObject({ type: z.literal('RuntimeDefault') }).optional(),
  }),
  affinity: z.unknown().optional(),
  containers: z.array(Container).min(1),
  volumes: z
    .array(
      z.strictObject({
        name: z.string(),
        persistentVolumeClaim: z.strictObject({ claimName: z.string() }).optional(),
        emptyDir: z.strictObject({}).optional(),
      }),
    )
    .optional(),
});
const Selector = z.strictObject({ matchLabels: Labels });
const Template = z.strictObject({
  metadata: z.strictObject({ labels: Labels, annotations: Labels.optional() }),
  spec: PodSpec,
});
const PvcSpec = z.strictObject({
  accessModes: z.array(z.enum(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'])),
  resources: z.strictObject({ requests: z.strictObject({ storage: Quantity }) }),
  storageClassName: z.string().optional(),
});
const KINDS: Record<string, z.ZodType> = {
  'apps/v1/Deployment': z.strictObject({
    apiVersion: z.literal('apps/v1'),
    kind: z.literal('Deployment'),
    metadata: Metadata,
    spec: z.strictObject({
      replicas: z.number().int(),
      strategy: z.strictObject({ type: z.enum(['Recreate', 'RollingUpdate']) }).optional(),
      selector: Selector,
      template: Template,
    }),
  }),
  'apps/v1/StatefulSet': z.strictObject({
    apiVersion: z.literal('apps/v1'),
    kind: z.literal('StatefulSet'),
    metadata: Metadata,
    spec: z.strictObject({
      serviceName: z.string(),
      replicas: z.number().int(),
      selector: Selector,
      template: Template,
      volumeClaimTemplates: z.array(z.strictObject({ metadata: z.strictObject({ name: z.string() }), spec: PvcSpec })),
    }),
  }),
  'v1/Service': z.strictObject({
    apiVersion: z.literal('v1'),
    kind: z.literal('Service'),
    metadata: Metadata,
    spec: z.strictObject({
      selector: Labels,
      ports: z.array(
        z.strictObject({ name: z.string(), port: z.number().int(), targetPort: z.union([z.string(), z.number()]) }),
      ),
    }),
  }),
  'v1/ConfigMap': z.strictObject({
    apiVersion: z.literal('v1'),
    kind: z.literal('ConfigMap'),
    metadata: Metadata,
    data: z.record(z.string(), z.string()),
  }),
  'v1/PersistentVolumeClaim': z.strictObject({
    apiVersion: z.literal('v1'),
    kind: z.literal('PersistentVolumeClaim'),
    metadata: Metadata,
    spec: PvcSpec,
  }),
  'policy/v1/PodDisruptionBudget': z.strictObject({
    apiVersion: z.literal('policy/v1'),
    kind: z.literal('PodDisruptionBudget'),
    metadata: Metadata,
    spec: z.strictObject({ minAvailable: z.number().int(), selector: Selector }),
  }),
  'autoscaling/v2/HorizontalPodAutoscaler': z.strictObject({
    apiVersion: z.literal('autoscaling/v2'),
    kind: z.literal('HorizontalPodAutoscaler'),
    metadata: Metadata,
    spec: z.strictObject({
      scaleTargetRef: z.strictObject({ apiVersion: z.string(), kind: z.string(), name: z.string() }),
      minReplicas: z.number().int().positive(),
      maxReplicas: z.number().int().positive(),
      metrics: z.array(
        z.strictObject({
          type: z.literal('Resource'),
          resource: z.strictObject({
            name: z.enum(['cpu', 'memory']),
            target: z.strictObject({ type: z.literal('Utilization'), averageUtilization: z.number().int() }),
          }),
        }),
      ),
      behavior: z.unknown().optional(),
    }),
  }),
};

describe('deploy/k8s (kustomize base + example overlay)', () => {
  const manifests = kustomizeBuild(join(root, 'deploy/k8s/overlays/example'));
  const byKind = (kind: string): Manifest[] => manifests.filter((m) => m.kind === kind);
  const lecternDeployments = byKind('Deployment');

  it('renders, and every manifest is a valid object of the Kubernetes 1.30 API kinds it uses', () => {
    expect(manifests.length).toBeGreaterThan(15);
    for (const m of manifests) {
      const schema = KINDS[`${m.apiVersion}/${m.kind}`];
      expect({ id: `${m.kind}/${m.metadata.name}`, known: Boolean(schema) }).toEqual({
        id: `${m.kind}/${m.metadata.name}`,
        known: true,
      });
      const parsed = schema!.safeParse(m);
      if (!parsed.success) throw new Error(`${m.kind}/${m.metadata.name}: ${z.prettifyError(parsed.error)}`);
      expect(m.metadata.namespace).toBe('lectern');
    }
  });

  it('runs the five Lectern deployments from the overlay image, non-root with fsGroup, probes on /health, 2 Gi limits', () => {
    expect(lecternDeployments.map((d) => d.metadata.name).sort()).toEqual([
      'converter',
      'converter-api',
      'document-store-mcp',
      'extraction-api',
      'policy-kb-mcp',
    ]);
    for (const d of lecternDeployments) {
      for (const c of containersOf(d) as Array<z.infer<typeof Container>>) {
        expect(c.image).toBe(
          `registry.example.com/lectern:${(JSON.parse(read('package.json')) as { version: string }).version}`,
        );
        expect(c.readinessProbe.httpGet?.path).toBe('/health');
        expect(c.livenessProbe.httpGet?.path).toBe('/health');
        expect(c.resources.limits.memory).toBe('2Gi');
        const app = /^dist\/apps\/([a-z-]+)\/src\/main\.cjs$/.exec(c.args![0]!)?.[1];
        expect(app).toBeDefined();
        expect(existsSync(join(root, 'apps', app!, 'src', 'main.ts'))).toBe(true);
        // authentication fails closed: the key comes from the Secret, and a missing Secret stops the pod
        const key = c.env?.find((e) => e.name === 'MCP_API_KEY');
        expect(key?.valueFrom?.secretKeyRef).toEqual({ name: 'lectern-secrets', key: 'MCP_API_KEY' });
      }
    }
  });

  it('has a PDB and an HPA for the converter workers, services for every deployment, ReadWriteOnce claims, Redis and Qdrant', () => {
    expect(
      byKind('HorizontalPodAutoscaler').map(
        (h) => (h['spec'] as { scaleTargetRef: { name: string } }).scaleTargetRef.name,
      ),
    ).toEqual(['converter']);
    expect(byKind('PodDisruptionBudget').map((p) => p.metadata.name)).toEqual(
      expect.arrayContaining(['converter', 'document-store-mcp', 'policy-kb-mcp']),
    );
    const services = new Set(byKind('Service').map((s) => s.metadata.name));
    for (const name of [...lecternDeployments.map((d) => d.metadata.name), 'redis', 'qdrant'])
      expect(services.has(name)).toBe(true);
    for (const pvc of byKind('PersistentVolumeClaim'))
      expect((pvc['spec'] as { accessModes: string[] }).accessModes).toEqual(['ReadWriteOnce']);
    expect(
      byKind('StatefulSet')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['qdrant', 'redis']);
    const secretKeys = manifests
      .flatMap((m) => containersOf(m) as Array<z.infer<typeof Container>>)
      .flatMap((c) => c.env ?? [])
      .map((e) => e.valueFrom?.secretKeyRef?.key)
      .filter(Boolean);
    const template = YAML.parse(read('deploy/k8s/base/secret.example.yaml')) as { stringData: Record<string, string> };
    expect([...new Set(secretKeys)].filter((k) => !(k! in template.stringData))).toEqual([]);
  });

  it('refuses a kustomization feature it does not render', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-kustomize-'));
    try {
      writeFileSync(join(dir, 'kustomization.yaml'), 'resources: []\npatches:\n  - path: p.yaml\n');
      expect(() => kustomizeBuild(dir)).toThrow(/unsupported by this renderer: patches/);
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
