// SPDX-License-Identifier: AGPL-3.0-or-later
import { DocumentTypeSchema } from '@lectern/contracts';
import { classifyDocument, isArchitecturalRendering, normaliseFilename } from './classify-document.js';
import { DOCUMENT_TYPE_RULES } from './document-type.rules.js';

const byFilename: Record<string, string[]> = {
  transport_assessment: [
    '25_01178_REM-Transport_Assessment.pdf',
    '/data/raw/25_01178_REM/Transport Assessment Part 2 of 3.pdf',
    'TransportAssessment.pdf',
    '21-00456-OUT_Transport_Statement.pdf',
    'Framework_Travel_Plan_v3.pdf',
    'Residential Travel Plan.PDF',
    'Traffic_Impact_Report.pdf',
  ],
  design_access_statement: [
    '25_01178_REM-Design_and_Access_Statement.pdf',
    'D&A Statement.pdf',
    'D_and_A_Statement_Rev_B.pdf',
    'D_A_Statement.pdf',
    'Design & Access Statement.pdf',
    'Planning, Design and Access Statement.pdf',
    'DAS_Addendum.pdf',
  ],
  site_plan: [
    'Site_Plan.pdf',
    '1234-PL-001 Site Location Plan.pdf',
    'Location_Plan_1250.pdf',
    'Proposed Block Plan.pdf',
    'Proposed_Site_Layout_Plan_RevC.pdf',
    'SitePlan.pdf',
  ],
  floor_plan: [
    'Proposed_Floor_Plans.pdf',
    'Ground_Floor_Plan.pdf',
    'First Floor Layout Plan.pdf',
    'Plot 12 - Ground Floor.pdf',
    'FloorPlan_HouseTypeA.pdf',
  ],
  elevation: ['Proposed_Elevations.pdf', 'North Elevation.pdf', 'Street_Scene_Sections.pdf', 'Streetscene AA.pdf'],
  planning_statement: [
    'Planning_Statement.pdf',
    '25_01178_REM Supporting Statement.pdf',
    'Supporting Planning Statement.pdf',
  ],
  environmental_statement: [
    'Environmental_Statement_Vol_1.pdf',
    'Environmental Impact Assessment Scoping Report.pdf',
    'EIA_Screening_Request.pdf',
    'ES Chapter 9 - Noise and Vibration (Environmental Statement).pdf',
  ],
  noise_assessment: [
    'Noise_Impact_Assessment.pdf',
    'Noise Report.pdf',
    'Environmental Noise Survey.pdf',
    'Acoustic_Design_Statement.pdf',
    'Noise and Vibration Assessment.pdf',
  ],
  flood_risk_assessment: [
    'Flood_Risk_Assessment.pdf',
    'FRA_and_Drainage_Strategy.pdf',
    '25-01178-FRA.pdf',
    'Foul and Surface Water Drainage Strategy.pdf',
    'Flood Risk & Drainage Addendum.pdf',
  ],
  ecology_report: [
    'Ecology_Report.pdf',
    'Preliminary_Ecological_Appraisal.pdf',
    'Bat Survey 2024.pdf',
    'Bat_Roost_Surveys.pdf',
    'Biodiversity_Net_Gain_Assessment.pdf',
    'Ecological Impact Assessment.pdf',
  ],
  heritage_statement: [
    'Heritage_Statement.pdf',
    'Heritage Impact Assessment.pdf',
    'Archaeological_Desk_Based_Assessment.pdf',
    'Archaeology Evaluation Report.pdf',
  ],
  arboricultural_report: [
    'Arboricultural_Impact_Assessment.pdf',
    'Arboricultural Method Statement.pdf',
    'Tree_Survey.pdf',
    'BS5837 Tree Survey Schedule.pdf',
  ],
};

/** Real names from ../shared/corpora and everyday names that share words with the table but are none of its types. */
const others = [
  'SASEA_Adoption_Statement_Dec_2017.pdf',
  'Coventry_AAP_Final_Report.pdf',
  'Stoke_Green_control_plan.pdf',
  'Willenhall_Neighbourhood_Plan_Decision_Statement.pdf',
  'Public_Notice.pdf',
  'NPPF_December_2024.pdf',
  'Appendix_2___Consultation_Statement___SUE_Design_Guidance.pdf',
  'Infrastructure_Delivery_Plan.pdf',
  'Planning Framework.pdf',
  'Statement of Community Involvement.pdf',
  'Application_Form.pdf',
  'Covering Letter.pdf',
  'Decision Notice.pdf',
  'Roof_Plan.pdf',
  'Transport_Policy_SPD.pdf',
  'Freshwater_Supply.pdf',
  'Daisy_Estate.pdf',
  'Local Plan 2017.pdf',
];

describe('classifyDocument', () => {
  it('covers every type of the spec 000 table', () => {
    const types = DocumentTypeSchema.options.filter((t) => t !== 'other');
    expect(Object.keys(byFilename).sort()).toEqual([...types].sort());
    expect(DOCUMENT_TYPE_RULES.map((r) => r.type).sort()).toEqual([...types].sort());
  });

  describe.each(Object.entries(byFilename))('filename → %s (high confidence)', (type, names) => {
    it.each(names)('%s', (name) => {
      const result = classifyDocument(name);
      expect(result).toMatchObject({ document_type: type, confidence: 'high' });
      expect(result.matched[0]).toMatch(/^filename:/);
    });
  });

  it.each(others)('%s → other (low confidence)', (name) => {
    expect(classifyDocument(name)).toEqual({ document_type: 'other', confidence: 'low', matched: [] });
  });

  it('prefers the filename over the content', () => {
    const content = 'Flood zone 1. Surface water drainage. Flood risk assessment. SuDS.';
    expect(classifyDocument('Transport_Assessment.pdf', content).document_type).toBe('transport_assessment');
  });

  it('falls back to content keywords (medium confidence) when the filename says nothing', () => {
    const content = `1. Introduction
      This Flood Risk Assessment supports the application. The site lies in Flood Zone 1.
      Surface water will be managed by sustainable drainage (SuDS) limited to greenfield runoff rates.`;
    const result = classifyDocument('Document_0004.pdf', content);
    expect(result.document_type).toBe('flood_risk_assessment');
    expect(result.confidence).toBe('medium');
    expect(result.matched).toEqual(
      expect.arrayContaining(['content:flood risk assessment×1', 'content:flood zone×1', 'content:suds×1']),
    );
  });

  it('recognises each type from content', () => {
    const samples: Record<string, string> = {
      transport_assessment: 'Trip generation for the AM peak; junction capacity assessed with the highway authority.',
      design_access_statement: 'This Design and Access Statement explains the design principles, scale and massing.',
      site_plan: 'Site location plan. Site boundary shown in red. Scale 1:1250.',
      floor_plan: 'Ground floor: kitchen, living room. First floor: three bedrooms.',
      elevation: 'Front elevation in red brick; rear elevation with timber cladding.',
      planning_statement:
        'The planning balance weighs the material considerations under the National Planning Policy Framework.',
      environmental_statement: 'The EIA Regulations require the likely significant effects to be reported.',
      noise_assessment: 'Measured levels of 55 dB LAeq,16h and LAmax 78 dB; assessment to BS 4142.',
      flood_risk_assessment: 'Flood Zone 3a; surface water discharge limited to greenfield runoff.',
      ecology_report: 'Habitat survey found no protected species; great crested newt eDNA negative.',
      heritage_statement: 'The listed building lies within the conservation area; Historic England was consulted.',
      arboricultural_report: 'Tree survey to BS 5837; root protection area of T4 shown.',
    };
    for (const [type, text] of Object.entries(samples)) {
      expect([type, classifyDocument('scan0001.pdf', text)]).toEqual([
        type,
        expect.objectContaining({ document_type: type, confidence: 'medium' }),
      ]);
    }
  });

  it('does not classify on a single passing mention', () => {
    expect(classifyDocument('Letter.pdf', 'Please find enclosed the Transport Assessment.')).toMatchObject({
      document_type: 'other',
      confidence: 'low',
    });
  });

  it('does not count keywords inside other words', () => {
    // "suds" inside "pseudsuds"? Only at word starts: "habitat" counts "habitats", "acoustic" counts "acoustics".
    expect(classifyDocument('x.pdf', 'subhabitat megasuds').document_type).toBe('other');
    expect(classifyDocument('x.pdf', 'Habitats and acoustics; habitat loss').document_type).toBe('ecology_report');
  });

  it('returns other for an empty name and no content', () => {
    expect(classifyDocument('.pdf')).toMatchObject({ document_type: 'other', confidence: 'low' });
    expect(classifyDocument('scan.pdf', '   ')).toMatchObject({ document_type: 'other', confidence: 'low' });
  });
});

describe('normaliseFilename', () => {
  it('lower-cases, splits camelCase and separators, and drops directory and extension', () => {
    expect(normaliseFilename('/data/raw/25_01178_REM-TransportAssessment.v2.pdf')).toBe(
      '25 01178 rem transport assessment v2',
    );
    expect(normaliseFilename('C:\\docs\\D&A_Statement.PDF')).toBe('d&a statement');
    expect(normaliseFilename("Artist's Impression (Rev A).jpg")).toBe('artist s impression rev a');
  });
});

describe('isArchitecturalRendering', () => {
  it.each([
    "Bird's Eye View.jpg",
    'Birdseye_Aerial.pdf',
    'Perspective_01.png',
    'CGI_Entrance.jpg',
    '3D_Visual_North.pdf',
    'Artists_Impression.pdf',
    'Photomontage_Viewpoint_3.pdf',
    'Street_Scene_Render.pdf',
    'Rendered_Visualisation.pdf',
    'Render 2.png',
  ])('%s is a rendering', (name) => {
    expect(isArchitecturalRendering(name)).toBe(true);
  });

  it.each(['Transport_Assessment.pdf', 'Site_Plan.pdf', 'Surrender_of_Lease.pdf', 'Proposed_Elevations.pdf'])(
    '%s is not a rendering',
    (name) => {
      expect(isArchitecturalRendering(name)).toBe(false);
    },
  );
});
