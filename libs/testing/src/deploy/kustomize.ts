// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import YAML from 'yaml';

/**
 * A minimal `kustomize build` for the features deploy/k8s uses — `resources` (files and directories holding a
 * kustomization), `namespace`, `images` (name -> newName/newTag) and `labels` (`pairs` on every object's metadata,
 * and with `includeTemplates: true` on the pod templates of workloads too) — and nothing else: any other key of a
 * kustomization.yaml or of a `labels` entry (`includeSelectors`, `fields`) is refused, so a feature added to the
 * manifests without teaching this renderer fails the test instead of rendering wrongly. The deploy tests render with
 * `kubectl kustomize` where kubectl is installed (`renderKustomization`) and with this renderer only where it is not
 * (kustomize has no npm package).
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
  labels?: Array<{ pairs: Record<string, string>; includeTemplates?: boolean }>;
}
const SUPPORTED_LABEL_KEYS = new Set(['pairs', 'includeTemplates']);

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
  for (const entry of kustomization.labels ?? []) {
    const keys = Object.keys(entry).filter((k) => !SUPPORTED_LABEL_KEYS.has(k));
    if (keys.length > 0)
      throw new Error(`${dir}/kustomization.yaml: unsupported by this renderer: labels[].${keys.join(', labels[].')}`);
  }
  const manifests: Manifest[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    if (statSync(path).isDirectory()) manifests.push(...kustomizeBuild(path));
    else manifests.push(...(readYamlDocs(path) as Manifest[]));
  }
  for (const m of manifests) {
    if (kustomization.namespace && !CLUSTER_SCOPED.has(m.kind)) m.metadata.namespace = kustomization.namespace;
    for (const { pairs, includeTemplates } of kustomization.labels ?? []) {
      m.metadata.labels = { ...m.metadata.labels, ...pairs };
      const template = (m['spec'] as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)
        ?.template;
      if (includeTemplates && template)
        template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...pairs } };
    }
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

/** Whether `kubectl` (with its built-in kustomize) is installed. */
export const kubectlInstalled = (): boolean => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * The manifests of a kustomization: `kubectl kustomize` where kubectl is installed (the real renderer), else
 * `kustomizeBuild` (which refuses what it does not implement). Answers which one rendered too.
 */
export const renderKustomization = (dir: string): { renderer: 'kubectl' | 'in-repo'; manifests: Manifest[] } => {
  if (!kubectlInstalled()) return { renderer: 'in-repo', manifests: kustomizeBuild(dir) };
  const yaml = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 32 << 20 });
  const manifests = YAML.parseAllDocuments(yaml)
    .map((d) => d.toJSON() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
  return { renderer: 'kubectl', manifests };
};
