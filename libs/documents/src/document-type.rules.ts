// SPDX-License-Identifier: AGPL-3.0-or-later
import type { DocumentType } from '@lectern/contracts';

/**
 * The rules of spec 000's document-type table (appendix "Document Type Classification").
 *
 * Filename patterns run against a normalised name (lower case, `_`/`-`/`.`/`+` and camelCase boundaries
 * turned into spaces, runs of spaces collapsed), so `25_01178_REM-Transport_Assessment.pdf` reads
 * `25 01178 rem transport assessment`. Every pattern is anchored on word boundaries: abbreviations such as
 * `FRA` or `EIA` only match as whole words (never inside "infrastructure" or "framework").
 *
 * Order matters where names combine two types; the first rule that matches wins:
 * - `floor_plan` before `site_plan` ("First Floor Layout Plan" is a floor plan, not a "layout plan");
 * - `environmental_statement` before the topic reports ("ES Chapter 9 Noise" is part of the ES);
 * - `design_access_statement` before `planning_statement` ("Planning, Design and Access Statement");
 * - `heritage_statement` and `arboricultural_report` before `planning_statement`, whose patterns are
 *   specific phrases anyway.
 * Otherwise the table's own order is kept.
 */
export interface DocumentTypeRule {
  type: Exclude<DocumentType, 'other'>;
  /** Patterns for the normalised filename (high confidence). */
  filename: RegExp[];
  /** Phrases counted in the content sample (medium confidence); lower case, matched on word boundaries. */
  keywords: string[];
}

export const DOCUMENT_TYPE_RULES: readonly DocumentTypeRule[] = [
  {
    type: 'environmental_statement',
    filename: [/\benvironmental (impact )?statement\b/, /\benvironmental impact assessment\b/, /\beia\b/],
    keywords: [
      'environmental statement',
      'environmental impact assessment',
      'eia regulations',
      'likely significant effects',
      'non-technical summary',
    ],
  },
  {
    type: 'transport_assessment',
    filename: [/\btransport (assessment|statement)\b/, /\btravel plan\b/, /\btraffic impact\b/],
    keywords: [
      'transport assessment',
      'transport statement',
      'travel plan',
      'traffic impact',
      'trip generation',
      'junction capacity',
      'modal split',
      'highway authority',
    ],
  },
  {
    type: 'design_access_statement',
    filename: [
      /\bdesign (and|&) access\b/,
      /\bdesign access statement\b/,
      /(^|\s)d ?(&|and) ?a statement\b/,
      /(^|\s)d a statement\b/,
      /\bdas\b/,
    ],
    keywords: [
      'design and access statement',
      'design & access statement',
      'scale and massing',
      'inclusive access',
      'design principles',
    ],
  },
  {
    type: 'floor_plan',
    filename: [
      /\bfloor ?plans?\b/,
      /\b(ground|first|second|third|lower ground|basement) floor\b/,
      /\bfloor layouts?\b/,
    ],
    keywords: ['floor plan', 'ground floor', 'first floor', 'second floor'],
  },
  {
    type: 'site_plan',
    filename: [/\bsite ?plans?\b/, /\blocation plans?\b/, /\bblock plans?\b/, /\blayout plans?\b/, /\bsite layout\b/],
    keywords: ['site plan', 'location plan', 'block plan', 'site layout', 'site boundary'],
  },
  {
    type: 'elevation',
    filename: [/\belevations?\b/, /\bstreet ?scenes?\b/],
    keywords: ['front elevation', 'rear elevation', 'side elevation', 'proposed elevation', 'street scene'],
  },
  {
    type: 'noise_assessment',
    filename: [/\bnoise (and vibration )?(impact )?(assessment|report|survey)\b/, /\bacoustic/],
    keywords: ['noise assessment', 'noise survey', 'acoustic', 'laeq', 'lamax', 'bs 4142', 'bs 8233'],
  },
  {
    type: 'flood_risk_assessment',
    filename: [/\bflood risk\b/, /\bfra\b/, /\bdrainage strategy\b/],
    keywords: [
      'flood risk assessment',
      'flood zone',
      'drainage strategy',
      'surface water',
      'sustainable drainage',
      'suds',
      'greenfield runoff',
    ],
  },
  {
    type: 'ecology_report',
    filename: [/\becolog(y|ical)\b/, /\bbat (roost )?surveys?\b/, /\bbiodiversity\b/],
    keywords: [
      'ecological',
      'ecology',
      'bat survey',
      'biodiversity',
      'protected species',
      'great crested newt',
      'habitat',
    ],
  },
  {
    type: 'heritage_statement',
    filename: [/\bheritage (impact )?(statement|assessment)\b/, /\barchaeolog(y|ical)\b/],
    keywords: [
      'heritage statement',
      'heritage assessment',
      'heritage asset',
      'listed building',
      'conservation area',
      'archaeological',
      'historic england',
    ],
  },
  {
    type: 'arboricultural_report',
    filename: [/\barboricultur(e|al)\b/, /\btree surveys?\b/],
    keywords: ['arboricultural', 'tree survey', 'bs 5837', 'root protection area', 'tree preservation order'],
  },
  {
    type: 'planning_statement',
    filename: [/\bplanning statement\b/, /\bsupporting (planning )?statement\b/],
    keywords: [
      'planning statement',
      'supporting statement',
      'planning balance',
      'material considerations',
      'national planning policy framework',
    ],
  },
];

/**
 * Spec 000 FR-005 "rendering detection": architectural renderings (3D visuals) skip OCR. Same normalised
 * filename as the classifier.
 */
export const RENDERING_PATTERNS: readonly RegExp[] = [
  /\bbirds? ?eye\b/,
  /\bbird s eye\b/,
  /\bperspectives?\b/,
  /\bcgis?\b/,
  /\b3d (visual|visualisation|visualization|view|render)/,
  /\bartist ?s impressions?\b/,
  /\bphotomontages?\b/,
  /\bstreet ?scenes?\b/,
  /\brender(s|ing|ings)?\b/,
  /\bvisuali[sz]ations?\b/,
];
