import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import YAML from 'yaml';

/**
 * A minimal `kustomize build` for the features deploy/k8s uses — `resources` (files and directories holding a
 * kustomization), `namespace`, `images` (name -> newName/newTag) and `labels.pairs` (metadata labels only) — and
 * nothing else: any other key of a kustomization.yaml is refused, so a feature added to the manifests without
 * teaching this renderer fails the test instead of rendering wrongly. Hand-written because no kustomize
 * implementation is installable here (no npm package in node_modules, no kubectl, offline).
 */
export type Manifest = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'labels']);
/** Kinds that live in no namespace (kustomize leaves them alone). */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume', 'StorageClass']);

interface Kustomization {
  resources?: string[];
  namespace?: string;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  labels?: Array<{ pairs: Record<string, string> }>;
}

const readYamlDocs = (file: string): unknown[] =>
  YAML.parseAllDocuments(readFileSync(file, 'utf8'), { merge: true })
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
      return d.toJSON() as unknown;
    })
    .filter((d) => d !== null && d !== undefined);

const containersOf = (m: Manifest): Array<{ image?: string }> => {
  const spec = (
    m['spec'] as
      | { template?: { spec?: { containers?: Array<{ image?: string }>; initContainers?: Array<{ image?: string }> } } }
      | undefined
  )?.template?.spec;
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
};

const setImage = (image: string, rules: NonNullable<Kustomization['images']>): string => {
  const [name, tag] = image.split(/:(?=[^/]*$)/) as [string, string | undefined];
  const rule = rules.find((r) => r.name === name);
  if (!rule) return image;
  const newTag = rule.newTag ?? tag;
  return `${rule.newName ?? name}${newTag ? `:${newTag}` : ''}`;
};

export const kustomizeBuild = (dir: string): Manifest[] => {
  const kustomization = readYamlDocs(join(dir, 'kustomization.yaml'))[0] as Kustomization & Record<string, unknown>;
  const unknown = Object.keys(kustomization).filter((k) => !SUPPORTED.has(k));
  if (unknown.length > 0)
    throw new Error(`${dir}/kustomization.yaml: unsupported by this renderer: ${unknown.join(', ')}`);
  const manifests: Manifest[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    if (statSync(path).isDirectory()) manifests.push(...kustomizeBuild(path));
    else manifests.push(...(readYamlDocs(path) as Manifest[]));
  }
  for (const m of manifests) {
    if (kustomization.namespace && !CLUSTER_SCOPED.has(m.kind)) m.metadata.namespace = kustomization.namespace;
    for (const { pairs } of kustomization.labels ?? []) m.metadata.labels = { ...m.metadata.labels, ...pairs };
    if (kustomization.images)
      for (const c of containersOf(m)) if (c.image) c.image = setImage(c.image, kustomization.images);
  }
  const seen = new Set<string>();
  for (const m of manifests) {
    const id = `${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`;
    if (seen.has(id)) throw new Error(`${dirname(dir)}: ${id} is defined twice`);
    seen.add(id);
  }
  return manifests;
};

export { containersOf };
