// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Spec 000 (FR-001 step 3, FR-005): architectural renderings, recognised by filename, bypass OCR (3D renders
 * hold no useful text). Patterns: bird's eye, perspective, CGI, 3D visual, artist's impression, photomontage,
 * street scene, render. Separators (space, _, -, .) and apostrophes are interchangeable.
 */
const PATTERNS = [
  /birds?['’]?[\s_.-]*eye/,
  /perspective/,
  /(^|[^a-z])cgis?([^a-z]|$)/,
  /3[\s_.-]*d[\s_.-]*visual/,
  /artists?['’]?[\s_.-]*impression/,
  /photo[\s_.-]*montage/,
  /street[\s_.-]*scene/,
  /render/,
];

export function isRenderingFilename(name: string): boolean {
  const base = (name.split(/[\\/]/).pop() ?? name).toLowerCase();
  return PATTERNS.some((p) => p.test(base));
}
