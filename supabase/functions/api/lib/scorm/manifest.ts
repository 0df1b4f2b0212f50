// A SCORM package's imsmanifest.xml: its version, title and SCOs in order with what each gives the
// run-time, and checkPackage, every check of a package before anything is stored. The manifest is
// untrusted (docs/SECURITY.md): no entities, launch files inside the package only.
import { XMLParser } from 'fast-xml-parser';
import { ApiError } from '../errors.ts';
import { entryBytes, readCentralDirectory, REEXPORT, refuse, safePath, type ZipEntry, type ZipSource } from './zip.ts';

const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

export type ScormVersion = '1.2' | '2004';
export interface Sco {
  id: string;
  title: string;
  href: string;
  /** What the manifest gives the run-time (ScoRunTimeData); absent when it gives nothing. */
  objectives?: string[];
  passingScore?: string;
  completionThreshold?: string;
  masteryScore?: string;
  launchData?: string;
}
export interface CheckedPackage {
  version: ScormVersion;
  edition: '2nd' | '3rd' | '4th' | null;
  title: string;
  scos: Sco[];
  files: ZipEntry[];
  unpackedBytes: number;
}

type Node = Record<string, unknown>;
const asArray = (value: unknown): Node[] => (Array.isArray(value) ? value : value == null ? [] : [value]) as Node[];
const text = (value: unknown): string => {
  if (value == null) return '';
  if (typeof value === 'object') return text((value as Node)['#text']);
  return String(value).trim();
};
const attr = (node: Node, name: string): string => {
  // Attribute names without their namespace prefix (removeNSPrefix), in either case SCORM tools use.
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') && key.slice(2).toLowerCase() === name.toLowerCase()) return String(value).trim();
  }
  return '';
};

/** The version and edition from metadata/schemaversion (or, when absent, the adlcp namespace). */
export function scormVersion(manifest: Node, rawXml: string): { version: ScormVersion; edition: CheckedPackage['edition'] } {
  const metadata = asArray(manifest.metadata)[0] ?? {};
  const declared = text(metadata.schemaversion);
  const v = declared.toLowerCase();
  if (v === '1.2') return { version: '1.2', edition: null };
  if (v.includes('2004') && v.includes('4th')) return { version: '2004', edition: '4th' };
  if (v.includes('2004') && v.includes('3rd')) return { version: '2004', edition: '3rd' };
  if ((v.includes('2004') && v.includes('2nd')) || v === 'cam 1.3' || v === '2004') return { version: '2004', edition: '2nd' };
  if (declared === '') {
    if (/adlcp_rootv1p2/i.test(rawXml)) return { version: '1.2', edition: null };
    if (/adlcp_v1p3/i.test(rawXml)) return { version: '2004', edition: '3rd' };
  }
  throw refuse(
    422,
    `The package is SCORM version "${declared.slice(0, 60) || 'unknown'}", which is not supported: export it as SCORM 1.2 or SCORM 2004 (2nd, 3rd or 4th edition)`,
  );
}

const joinBase = (...parts: string[]) =>
  parts.filter((p) => p !== '').reduce((acc, p) => (/^[a-z][a-z0-9+.-]*:/i.test(p) || p.startsWith('/') ? p : acc + p), '');

/** A child element by its name without prefix, in any case (tools write datafromlms and dataFromLMS). */
const child = (node: Node | undefined, name: string): unknown => {
  if (!node) return undefined;
  for (const [key, value] of Object.entries(node)) if (!key.startsWith('@_') && key.toLowerCase() === name.toLowerCase()) return value;
  return undefined;
};
const DECIMAL = /^-?\d{1,10}(\.\d{1,10})?$/;
const decimalIn = (value: string, min: number, max: number): string | undefined =>
  DECIMAL.test(value) && Number(value) >= min && Number(value) <= max ? value : undefined;
const MAX_OBJECTIVES = 250;

/**
 * What the manifest tells the run-time about one SCO, as SCORM's content packaging says the LMS
 * initialises it: 2004's objectives (imsss:primaryObjective and imsss:objective ids: cmi.objectives),
 * the primary objective's minNormalizedMeasure when satisfiedByMeasure is true
 * (cmi.scaled_passing_score), adlcp:completionThreshold (cmi.completion_threshold: the element's
 * text in the 3rd edition, minProgressMeasure with completedByMeasure in the 4th); 1.2's
 * adlcp:masteryscore (cmi.student_data.mastery_score); and dataFromLMS (cmi.launch_data). A value
 * out of its range is left out, never a reason to refuse the package.
 */
function scoRunTimeData(version: ScormVersion, item: Node, collection: Node[]): Partial<Sco> {
  const out: Partial<Sco> = {};
  const launchData = text(child(item, 'dataFromLMS'));
  if (launchData) out.launchData = launchData.slice(0, version === '1.2' ? 4096 : 4000);
  if (version === '1.2') {
    const mastery = decimalIn(text(child(item, 'masteryscore')), 0, 100);
    if (mastery !== undefined) out.masteryScore = mastery;
    return out;
  }
  const threshold = asArray(child(item, 'completionThreshold'))[0];
  if (threshold !== undefined) {
    const byMeasure = attr(threshold, 'completedByMeasure');
    const value = byMeasure || attr(threshold, 'minProgressMeasure')
      ? (byMeasure.toLowerCase() === 'true' ? decimalIn(attr(threshold, 'minProgressMeasure') || '1', 0, 1) : undefined)
      : decimalIn(text(threshold), 0, 1);
    if (value !== undefined) out.completionThreshold = value;
  }
  // The item's own sequencing, or the collection's one it names (IDRef); the item's objectives win.
  const own = asArray(child(item, 'sequencing'))[0];
  const shared = own && attr(own, 'IDRef') ? collection.find((s) => attr(s, 'ID') === attr(own, 'IDRef')) : undefined;
  const objectivesNode = asArray(child(own, 'objectives'))[0] ?? asArray(child(shared, 'objectives'))[0];
  if (objectivesNode) {
    const primary = asArray(child(objectivesNode, 'primaryObjective'))[0];
    if (primary && attr(primary, 'satisfiedByMeasure').toLowerCase() === 'true') {
      const passing = decimalIn(text(child(primary, 'minNormalizedMeasure')) || '1', -1, 1);
      if (passing !== undefined) out.passingScore = passing;
    }
    const ids = [primary, ...asArray(child(objectivesNode, 'objective'))]
      .map((o) => (o ? attr(o, 'objectiveID') : ''))
      .filter((id) => /^\S{1,4000}$/.test(id));
    const unique = [...new Set(ids)].slice(0, MAX_OBJECTIVES);
    if (unique.length > 0) out.objectives = unique;
  }
  return out;
}

/** Parses imsmanifest.xml: version, title, and the SCOs of the default organisation in order. */
export function parseManifest(xml: string, files: Set<string>): Omit<CheckedPackage, 'files' | 'unpackedBytes'> {
  // No entity declarations: the manifest is untrusted and needs none (entity expansion bombs).
  if (/<!ENTITY/i.test(xml)) throw refuse(422, `The package's imsmanifest.xml declares XML entities, which are not allowed: ${REEXPORT}`);
  let doc: Node;
  try {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: true,
      htmlEntities: false,
      isArray: (name) => ['organization', 'item', 'resource', 'file', 'dependency', 'objective', 'sequencing'].includes(name),
    });
    doc = parser.parse(xml, true) as Node;
  } catch {
    throw refuse(422, `The package's imsmanifest.xml is not well-formed XML: ${REEXPORT}`);
  }
  const manifest = asArray(doc.manifest)[0];
  if (!manifest) throw refuse(422, `The package's imsmanifest.xml has no <manifest> element: ${REEXPORT}`);
  const { version, edition } = scormVersion(manifest, xml);

  const organizations = asArray(manifest.organizations)[0] ?? {};
  const orgs = asArray(organizations.organization);
  const wanted = attr(organizations, 'default');
  const org = orgs.find((o) => attr(o, 'identifier') === wanted) ?? orgs[0];
  const resourcesNode = asArray(manifest.resources)[0] ?? {};
  const resources = new Map(asArray(resourcesNode.resource).map((r) => [attr(r, 'identifier'), r]));
  const manifestBase = joinBase(attr(manifest, 'base'), attr(resourcesNode, 'base'));
  const sequencingCollection = asArray(asArray(manifest.sequencingCollection)[0]?.sequencing);

  const scos: Sco[] = [];
  const walk = (items: Node[]) => {
    for (const item of items) {
      const ref = attr(item, 'identifierref');
      const resource = ref ? resources.get(ref) : undefined;
      if (resource && attr(resource, 'scormtype').toLowerCase() === 'sco' && attr(resource, 'href')) {
        scos.push({
          id: attr(item, 'identifier') || ref,
          title: text(item.title) || ref,
          href: launchHref(item, resource),
          ...scoRunTimeData(version, item, sequencingCollection),
        });
      }
      walk(asArray(item.item));
    }
  };
  const launchHref = (item: Node, resource: Node): string => {
    const href = joinBase(manifestBase, attr(resource, 'base'), attr(resource, 'href'));
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) {
      throw refuse(422, `The launch file of "${text(item.title) || attr(item, 'identifier')}" points outside the package (${href.slice(0, 120)}): ${REEXPORT}`);
    }
    const [pathPart] = href.split(/[?#]/);
    let path: string;
    try {
      path = safePath(decodeURIComponent(pathPart));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      path = safePath(pathPart);
    }
    if (!files.has(path)) {
      throw refuse(422, `The launch file "${path.slice(0, 120)}" named in imsmanifest.xml is not in the package: ${REEXPORT}`);
    }
    const parameters = attr(item, 'parameters');
    if (!parameters) return href;
    if (parameters.startsWith('#') || parameters.startsWith('?')) {
      return parameters.startsWith('?') && href.includes('?') ? `${href}&${parameters.slice(1)}` : `${href}${parameters}`;
    }
    return `${href}${href.includes('?') ? '&' : '?'}${parameters}`;
  };
  if (org) walk(asArray(org.item));
  if (scos.length === 0) {
    throw refuse(422, `The package has nothing a learner can launch (no SCO with a launch file in imsmanifest.xml): ${REEXPORT}`);
  }
  const title = (org && text(org.title)) || attr(manifest, 'identifier') || 'SCORM package';
  return { version, edition, title: title.slice(0, 500), scos };
}

/** Every check of a package, from its central directory and manifest; nothing is inflated but the manifest. */
export async function checkPackage(source: ZipSource): Promise<CheckedPackage> {
  const entries = await readCentralDirectory(source);
  const manifestEntry = entries.find((e) => e.name.toLowerCase() === 'imsmanifest.xml');
  if (!manifestEntry) {
    const nested = entries.find((e) => e.name.toLowerCase().endsWith('/imsmanifest.xml'));
    if (nested) {
      const folder = nested.name.slice(0, -'imsmanifest.xml'.length);
      throw refuse(
        422,
        `The package has no imsmanifest.xml at its top level: it is in the folder "${folder.slice(0, 120)}". Zip the contents of that folder, not the folder itself, or ${REEXPORT}`,
      );
    }
    throw refuse(422, `The package has no imsmanifest.xml at its top level: ${REEXPORT}`);
  }
  if (manifestEntry.size > MAX_MANIFEST_BYTES) throw refuse(413, 'The package\'s imsmanifest.xml is larger than 8 MB');
  const xml = new TextDecoder('utf-8').decode(await entryBytes(source, manifestEntry));
  const files = new Set(entries.map((e) => e.name));
  const parsed = parseManifest(xml, files);
  return { ...parsed, files: entries, unpackedBytes: entries.reduce((sum, e) => sum + e.size, 0) };
}
