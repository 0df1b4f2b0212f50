// Builds SCORM packages in the shapes real authoring tools export, and malformed ones, for the tests
// of SCORM packages (the upload's checks, the run-time and the player import these). Real zips, made with
// fflate's zipSync; nothing here is a mock of the server.
import { strToU8, zipSync, type Zippable } from 'fflate';

export type Files = Record<string, string | Uint8Array>;

const u8 = (value: string | Uint8Array) => (typeof value === 'string' ? strToU8(value) : value);

/** A zip of the files (deflated; `level: 0` stores them). */
export function zipOf(files: Files, options: { level?: 0 | 6 | 9 } = {}): Uint8Array {
  const zippable: Zippable = {};
  for (const [name, value] of Object.entries(files)) zippable[name] = u8(value);
  return zipSync(zippable, { level: options.level ?? 6 });
}

/** A real 1x1 PNG. */
export const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (ch) => ch.charCodeAt(0),
);

/** A launch page for SCORM 1.2 that finds `API` and runs `body` (JavaScript using `api`). */
export function scorm12Page(title: string, body = `
  api.LMSSetValue('cmi.core.score.raw', '85');
  api.LMSSetValue('cmi.core.score.min', '0');
  api.LMSSetValue('cmi.core.score.max', '100');
  api.LMSSetValue('cmi.core.lesson_status', 'passed');
  api.LMSCommit('');
  api.LMSFinish('');`): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="story_content/styles.css"><script src="lms/scormdriver.js"></script></head>
<body><h1>${title}</h1><p id="status">Loading</p>
<script>
function findAPI(w) { for (var i = 0; w && i < 10; i++) { if (w.API) return w.API; if (w.parent === w) break; w = w.parent; } return null; }
var api = findAPI(window) || (window.opener && findAPI(window.opener));
if (api) { api.LMSInitialize('');${body}
  document.getElementById('status').textContent = 'Done'; }
else { document.getElementById('status').textContent = 'No LMS API'; }
</script></body></html>`;
}

/** A launch page for SCORM 2004 that finds `API_1484_11` and runs `body` (JavaScript using `api`). */
export function scorm2004Page(title: string, body = `
  api.SetValue('cmi.completion_status', 'completed');
  api.SetValue('cmi.exit', 'normal');
  api.Commit('');
  api.Terminate('');`): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>${title}</title><script src="../common/launch.js"></script></head>
<body><h1>${title}</h1><p id="status">Loading</p>
<script>
function findAPI(w) { for (var i = 0; w && i < 10; i++) { if (w.API_1484_11) return w.API_1484_11; if (w.parent === w) break; w = w.parent; } return null; }
var api = findAPI(window) || (window.opener && findAPI(window.opener));
if (api) { api.Initialize('');${body}
  document.getElementById('status').textContent = 'Done'; }
else { document.getElementById('status').textContent = 'No LMS API'; }
</script></body></html>`;
}

export interface Scorm12Options {
  title?: string;
  /** JavaScript run with `api` after LMSInitialize (default: passed with 85). */
  script?: string;
  /** Extra files, merged over the package's. */
  extra?: Files;
}

/** The manifest an Articulate-style single-SCO SCORM 1.2 export has. */
export function scorm12Manifest(title: string): string {
  return `<?xml version="1.0" encoding="utf-8" standalone="no" ?>
<manifest identifier="Articulate_Fire_Safety" version="1.2"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="Fire_Safety_ORG">
    <organization identifier="Fire_Safety_ORG">
      <title>${title}</title>
      <item identifier="Fire_Safety_SCO" identifierref="Fire_Safety_RES" isvisible="true">
        <title>${title}</title>
        <adlcp:masteryscore>80</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="Fire_Safety_RES" type="webcontent" adlcp:scormtype="sco" href="index_lms.html">
      <file href="index_lms.html" />
      <file href="lms/scormdriver.js" />
      <file href="story_content/styles.css" />
      <file href="story_content/logo.png" />
    </resource>
  </resources>
</manifest>`;
}

/** A single-SCO SCORM 1.2 package as Articulate Storyline exports it (index_lms.html at the root). */
export function scorm12Package(options: Scorm12Options = {}): Uint8Array {
  const title = options.title ?? 'Fire safety awareness';
  return zipOf({
    'imsmanifest.xml': scorm12Manifest(title),
    'index_lms.html': scorm12Page(title, options.script),
    'lms/scormdriver.js': '// The tool\'s driver would be here.\nwindow.scormDriverLoaded = true;\n',
    'story_content/styles.css': 'body { font-family: sans-serif; color: #1a1a1a; }\n',
    'story_content/logo.png': PNG,
    'metadata.xml': '<?xml version="1.0"?><lom/>',
    ...options.extra,
  });
}

export interface Scorm2004Options {
  title?: string;
  edition?: '2nd' | '3rd' | '4th';
  /** JavaScript per SCO (index 0..2) run with `api` after Initialize (default: completed). */
  scripts?: (string | undefined)[];
  extra?: Files;
}

const SCHEMA_VERSION = { '2nd': 'CAM 1.3', '3rd': '2004 3rd Edition', '4th': '2004 4th Edition' };

/** The manifest of a three-SCO SCORM 2004 package (one folder per SCO, a shared folder, parameters on one item). */
export function scorm2004Manifest(title: string, edition: '2nd' | '3rd' | '4th' = '3rd'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="com.example.casualty.care" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${SCHEMA_VERSION[edition]}</schemaversion>
  </metadata>
  <organizations default="CASUALTY_ORG">
    <organization identifier="CASUALTY_ORG" adlseq:objectivesGlobalToSystem="false">
      <title>${title}</title>
      <item identifier="ITEM_ASSESS" identifierref="RES_ASSESS">
        <title>Primary survey</title>
      </item>
      <item identifier="ITEM_MODULES">
        <title>Treatment</title>
        <item identifier="ITEM_BLEED" identifierref="RES_BLEED" parameters="?section=bleeding">
          <title>Catastrophic bleeding</title>
        </item>
        <item identifier="ITEM_AIRWAY" identifierref="RES_AIRWAY">
          <title>Airway management</title>
        </item>
      </item>
      <item identifier="ITEM_GLOSSARY" identifierref="RES_GLOSSARY">
        <title>Glossary</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="RES_ASSESS" type="webcontent" adlcp:scormType="sco" href="assess/index.html">
      <file href="assess/index.html" />
      <dependency identifierref="SHARED" />
    </resource>
    <resource identifier="RES_BLEED" type="webcontent" adlcp:scormType="sco" xml:base="bleeding/" href="index.html">
      <file href="bleeding/index.html" />
      <dependency identifierref="SHARED" />
    </resource>
    <resource identifier="RES_AIRWAY" type="webcontent" adlcp:scormType="sco" href="airway/index.html">
      <file href="airway/index.html" />
      <dependency identifierref="SHARED" />
    </resource>
    <resource identifier="RES_GLOSSARY" type="webcontent" adlcp:scormType="asset" href="common/glossary.html">
      <file href="common/glossary.html" />
    </resource>
    <resource identifier="SHARED" type="webcontent" adlcp:scormType="asset">
      <file href="common/launch.js" />
      <file href="common/theme.css" />
    </resource>
  </resources>
</manifest>`;
}

/** A three-SCO SCORM 2004 package (3rd edition unless told), its SCOs in order: assess, bleeding, airway. */
export function scorm2004Package(options: Scorm2004Options = {}): Uint8Array {
  const title = options.title ?? 'Casualty care';
  const scripts = options.scripts ?? [];
  return zipOf({
    'imsmanifest.xml': scorm2004Manifest(title, options.edition ?? '3rd'),
    'assess/index.html': scorm2004Page('Primary survey', scripts[0]),
    'bleeding/index.html': scorm2004Page('Catastrophic bleeding', scripts[1]),
    'airway/index.html': scorm2004Page('Airway management', scripts[2]),
    'common/glossary.html': '<!doctype html><html lang="en-GB"><head><title>Glossary</title></head><body><p>Terms</p></body></html>',
    'common/launch.js': 'window.launchLoaded = true;\n',
    'common/theme.css': 'h1 { color: #003d6b; }\n',
    'common/font.woff2': new Uint8Array([0x77, 0x4f, 0x46, 0x32, 0, 1, 0, 0]),
    ...options.extra,
  });
}

// ---- Malformed packages

const le32 = (b: Uint8Array, at: number, value: number) => {
  b[at] = value & 0xff;
  b[at + 1] = (value >>> 8) & 0xff;
  b[at + 2] = (value >>> 16) & 0xff;
  b[at + 3] = (value >>> 24) & 0xff;
};

/** Rewrites the central directory's (and local header's) declared uncompressed size of `name`. */
export function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const target = strToU8(name);
  for (let at = 0; at + 46 < out.length; at++) {
    const sig = out[at] | (out[at + 1] << 8) | (out[at + 2] << 16) | (out[at + 3] << 24);
    if (sig === 0x02014b50) {
      const nameLength = out[at + 28] | (out[at + 29] << 8);
      if (nameLength === target.length && target.every((b, i) => out[at + 46 + i] === b)) le32(out, at + 24, size);
    } else if (sig === 0x04034b50) {
      const nameLength = out[at + 26] | (out[at + 27] << 8);
      if (nameLength === target.length && target.every((b, i) => out[at + 30 + i] === b)) le32(out, at + 22, size);
    }
  }
  return out;
}

export const malformed = {
  /** Files but no imsmanifest.xml. */
  noManifest: () => zipOf({ 'index.html': scorm12Page('No manifest'), 'style.css': 'body{}' }),
  /** The whole export zipped with its folder: the manifest one level down. */
  manifestInFolder: () =>
    zipOf({
      'Fire Safety Export/imsmanifest.xml': scorm12Manifest('Fire safety awareness'),
      'Fire Safety Export/index_lms.html': scorm12Page('Fire safety awareness'),
    }),
  /** A file whose path climbs out of the package. */
  dotDot: () => scorm12Package({ extra: { '../../etc/evil.html': '<p>out</p>' } }),
  /** A file with an absolute path. */
  absolutePath: () => scorm12Package({ extra: { '/etc/evil.html': '<p>out</p>' } }),
  /** A few KB that declares (truthfully) 64 MiB of zeros: refused from the central directory by its ratio. */
  zipBomb: () => scorm12Package({ extra: { 'assets/bomb.bin': new Uint8Array(64 * 1024 * 1024) } }),
  /** A few KB that declares 2 GiB of content: refused from the central directory by the total. */
  declaredHuge: () => declareSize(scorm12Package({ extra: { 'assets/huge.bin': new Uint8Array(1000) } }), 'assets/huge.bin', 0x80000000),
  /** A lying header: declares 1,000 bytes but inflates to 4 MiB (stopped at the declared size). */
  lyingHeader: () => declareSize(scorm12Package({ extra: { 'assets/liar.bin': new Uint8Array(4 * 1024 * 1024) } }), 'assets/liar.bin', 1000),
  /** A PNG renamed .zip. */
  renamedPng: () => PNG,
  /** A symbolic link entry (Unix mode 0120777), as `zip --symlinks` writes it. */
  symlink: () => {
    const zippable: Zippable = {
      'imsmanifest.xml': strToU8(scorm12Manifest('Fire safety awareness')),
      'index_lms.html': strToU8(scorm12Page('Fire safety awareness')),
      'story_content/logo.png': [strToU8('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    };
    return zipSync(zippable);
  },
  /** SCORM version the server does not take. */
  unsupportedVersion: () =>
    zipOf({ 'imsmanifest.xml': scorm12Manifest('Old').replace('<schemaversion>1.2</schemaversion>', '<schemaversion>1.1</schemaversion>'), 'index_lms.html': 'x' }),
  /** A manifest whose only resource is an asset: nothing to launch. */
  noSco: () =>
    zipOf({ 'imsmanifest.xml': scorm12Manifest('Assets only').replace('adlcp:scormtype="sco"', 'adlcp:scormtype="asset"'), 'index_lms.html': 'x' }),
};

// ---- Packages as authoring tools really make them: the manifest declares objectives,
// sequencing with a passing score and a completion threshold (2004) or a mastery score (1.2); the
// content finds its objectives by the ids the manifest gave, records interactions of every response
// type, offers to resume with confirm(), tells the learner with alert(), keeps its place in
// suspend_data, and on unload reports cmi.exit and session_time and terminates. A package that
// writes invalid values (as some tools do) must keep working.

/** The run-time calls and helpers a tool's driver script holds, shared by the pages below. */
const DRIVER = `
var started = Date.now();
var terminated = false;
function pad(n) { return (n < 10 ? '0' : '') + n; }
function isoDuration(ms) { var s = Math.round(ms / 10) / 100; return 'PT' + s + 'S'; }
function timespan(ms) { var t = Math.floor(ms / 1000); return '00' + pad(Math.floor(t / 3600)) + ':' + pad(Math.floor(t / 60) % 60) + ':' + pad(t % 60); }
function show(id, text) { var el = document.getElementById(id); if (el) el.textContent = text; }
`;

export interface RealPackageOptions {
  title?: string;
  /** imsss:minNormalizedMeasure of the primary objective (with satisfiedByMeasure="true"). */
  passingScore?: string;
  /** adlcp:completionThreshold (3rd edition: the element's text). */
  completionThreshold?: string;
  /** The score the quiz gives (0-100). */
  score?: number;
}

/** The manifest of a single-SCO SCORM 2004 3rd edition export (Storyline / Captivate / iSpring style). */
export function real2004Manifest(options: RealPackageOptions = {}): string {
  const title = options.title ?? 'Major incident triage';
  return `<?xml version="1.0" encoding="UTF-8" standalone="no" ?>
<manifest identifier="MajorIncidentTriage_Course" version="1.0"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 3rd Edition</schemaversion>
  </metadata>
  <organizations default="MajorIncidentTriage_ORG">
    <organization identifier="MajorIncidentTriage_ORG" adlseq:objectivesGlobalToSystem="false">
      <title>${title}</title>
      <item identifier="MajorIncidentTriage_SCO" identifierref="MajorIncidentTriage_RES" isvisible="true">
        <title>${title}</title>
        ${options.completionThreshold ? `<adlcp:completionThreshold>${options.completionThreshold}</adlcp:completionThreshold>` : ''}
        <adlcp:dataFromLMS>lang=en-GB</adlcp:dataFromLMS>
        <imsss:sequencing>
          <imsss:controlMode choiceExit="true" flow="false" />
          <imsss:deliveryControls tracked="true" completionSetByContent="true" objectiveSetByContent="false" />
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="PRIMARYOBJ" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${options.passingScore ?? '0.8'}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
            <imsss:objective objectiveID="obj_sieve" />
            <imsss:objective objectiveID="obj_sort" />
          </imsss:objectives>
        </imsss:sequencing>
      </item>
      <imsss:sequencing>
        <imsss:controlMode choice="true" flow="true" />
      </imsss:sequencing>
    </organization>
  </organizations>
  <resources>
    <resource identifier="MajorIncidentTriage_RES" type="webcontent" adlcp:scormType="sco" href="scormcontent/index.html">
      <file href="scormcontent/index.html" />
      <file href="scormdriver/driver.js" />
      <dependency identifierref="Shared_RES" />
    </resource>
    <resource identifier="Shared_RES" type="webcontent" adlcp:scormType="asset">
      <file href="scormcontent/styles.css" />
    </resource>
  </resources>
</manifest>`;
}

/**
 * The interactions of the quiz, one of each SCORM 2004 type, with a response in the format the
 * standard gives for it: [id, type, correct pattern, learner response, result].
 */
export const INTERACTIONS_2004: [string, string, string, string, string][] = [
  ['q_tf', 'true-false', 'true', 'true', 'correct'],
  ['q_choice', 'choice', 'red[,]yellow', 'red[,]yellow', 'correct'],
  ['q_fill', 'fill-in', 'tourniquet', 'tourniquet', 'correct'],
  ['q_long', 'long-fill-in', 'Apply direct pressure to the wound', 'Apply direct pressure to the wound', 'correct'],
  ['q_match', 'matching', 'red[.]immediate[,]yellow[.]urgent', 'red[.]immediate[,]yellow[.]urgent', 'correct'],
  ['q_perf', 'performance', 'walk[.]assess[,]breathe[.]open', 'walk[.]assess[,]breathe[.]open', 'correct'],
  ['q_seq', 'sequencing', 'sieve[,]sort[,]treat', 'sieve[,]sort[,]treat', 'correct'],
  ['q_likert', 'likert', 'agree', 'agree', 'neutral'],
  ['q_num', 'numeric', '10[:]30', '20', 'correct'],
  ['q_other', 'other', 'anything', 'a free answer', 'neutral'],
];

/**
 * The SCO of the 2004 export. Slides 1 to 3 and a quiz; its place (cmi.location, suspend_data) is
 * kept as it goes; on a resume it asks with confirm(); objectives are found by the ids the
 * manifest declared (with none loaded their index is undefined, as such tools write); the quiz
 * reports every interaction type, the score and progress_measure but not success_status (the LMS
 * derives it from the manifest's passing score); alert() tells the result. Leaving (its Exit or the
 * page unloading) reports exit and session_time and terminates.
 */
export function real2004Page(options: RealPackageOptions = {}): string {
  const score = options.score ?? 100;
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>${options.title ?? 'Major incident triage'}</title>
<link rel="stylesheet" href="styles.css"><script src="../scormdriver/driver.js"></script></head>
<body>
<h1 id="slide-title">Loading</h1>
<p>Entry: <span id="entry"></span>; location: <span id="location"></span>; objectives: <span id="objectives"></span>; passing score: <span id="passing"></span></p>
<p id="result"></p>
<nav><button id="prev" type="button">Previous</button> <button id="next" type="button">Next</button> <button id="submit" type="button">Submit quiz</button> <button id="exit" type="button">Exit course</button></nav>
<script>
${DRIVER}
function findAPI(w) { for (var i = 0; w && i < 10; i++) { if (w.API_1484_11) return w.API_1484_11; if (w.parent === w) break; w = w.parent; } return null; }
var api = findAPI(window);
var slide = 0;
var objectiveIndex = {};
function go(n) {
  slide = n;
  show('slide-title', n < 3 ? 'Slide ' + (n + 1) + ' of 3' : 'Quiz');
  api.SetValue('cmi.location', String(n));
  api.SetValue('cmi.suspend_data', JSON.stringify({ slide: n, visited: n + 1 }));
  api.SetValue('cmi.progress_measure', String(Math.min(n, 3) / 4));
  api.SetValue('cmi.completion_status', 'incomplete');
  api.SetValue('cmi.exit', 'suspend');
  api.Commit('');
}
function leave() {
  if (terminated) return;
  terminated = true;
  api.SetValue('cmi.session_time', isoDuration(Date.now() - started));
  api.Terminate('');
}
api.Initialize('');
var count = Number(api.GetValue('cmi.objectives._count')) || 0;
for (var i = 0; i < count; i++) objectiveIndex[api.GetValue('cmi.objectives.' + i + '.id')] = i;
show('entry', api.GetValue('cmi.entry') || '(none)');
show('location', api.GetValue('cmi.location') || '(none)');
show('objectives', String(count));
show('passing', api.GetValue('cmi.scaled_passing_score') || '(none)');
api.SetValue('cmi.score.min', '0');
api.SetValue('cmi.score.max', '100');
var saved = api.GetValue('cmi.location');
if (api.GetValue('cmi.entry') === 'resume' && saved !== '' && window.confirm('Would you like to resume where you left off?')) go(Number(saved));
else go(0);
document.getElementById('next').onclick = function () { go(Math.min(slide + 1, 3)); };
document.getElementById('prev').onclick = function () { go(Math.max(slide - 1, 0)); };
document.getElementById('submit').onclick = function () {
  var rows = ${JSON.stringify(INTERACTIONS_2004)};
  for (var n = 0; n < rows.length; n++) {
    var p = 'cmi.interactions.' + n + '.';
    api.SetValue(p + 'id', rows[n][0]);
    api.SetValue(p + 'type', rows[n][1]);
    api.SetValue(p + 'objectives.0.id', 'obj_sort');
    api.SetValue(p + 'timestamp', '2026-11-28T10:0' + (n % 10) + ':00Z');
    api.SetValue(p + 'correct_responses.0.pattern', rows[n][2]);
    api.SetValue(p + 'learner_response', rows[n][3]);
    api.SetValue(p + 'result', rows[n][4]);
    api.SetValue(p + 'weighting', '1');
    api.SetValue(p + 'latency', 'PT' + (n + 2) + 'S');
    api.SetValue(p + 'description', 'Question ' + (n + 1));
  }
  ['obj_sieve', 'obj_sort'].forEach(function (id) {
    var at = objectiveIndex[id];
    api.SetValue('cmi.objectives.' + at + '.success_status', 'passed');
    api.SetValue('cmi.objectives.' + at + '.completion_status', 'completed');
    api.SetValue('cmi.objectives.' + at + '.score.scaled', '1');
  });
  api.SetValue('cmi.score.raw', '${score}');
  api.SetValue('cmi.score.scaled', '${score / 100}');
  api.SetValue('cmi.progress_measure', '1');
  api.SetValue('cmi.completion_status', 'completed');
  api.SetValue('cmi.exit', 'normal');
  api.Commit('');
  show('result', 'Score ' + '${score}' + '%; success ' + api.GetValue('cmi.success_status'));
  window.alert('You scored ${score}%.');
};
document.getElementById('exit').onclick = leave;
window.addEventListener('beforeunload', leave);
window.addEventListener('unload', leave);
</script></body></html>`;
}

/** A SCORM 2004 3rd edition package as authoring tools export it (see real2004Page). */
export function real2004Package(options: RealPackageOptions = {}): Uint8Array {
  return zipOf({
    'imsmanifest.xml': real2004Manifest(options),
    'scormcontent/index.html': real2004Page(options),
    'scormcontent/styles.css': 'body { font-family: sans-serif; }\n',
    'scormdriver/driver.js': '// The tool\'s driver.\n',
    'metadata.xml': '<?xml version="1.0"?><lom/>',
  });
}

/** 4,096 characters of suspend data, the most SCORM 1.2 allows (the tools' compressed state). */
export const SUSPEND_4096 = Array.from({ length: 4096 }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[(i * 7) % 62]).join('');

/**
 * The SCO of a SCORM 1.2 export with adlcp:masteryscore 80: it keeps its state in 4,096 characters
 * of suspend_data, asks with confirm() on a resume, records 1.2 interactions, and reports
 * "completed" with its score (the LMS makes it passed or failed against the mastery score).
 */
export function real12Page(options: RealPackageOptions = {}): string {
  const score = options.score ?? 90;
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>${options.title ?? 'Water rescue awareness'}</title></head>
<body>
<h1 id="slide-title">Loading</h1>
<p>Entry: <span id="entry"></span>; location: <span id="location"></span>; suspend data: <span id="suspend-length"></span> characters, intact: <span id="intact"></span>; mastery score: <span id="mastery"></span></p>
<nav><button id="half" type="button">Half way</button> <button id="finish" type="button">Finish</button> <button id="exit" type="button">Exit course</button></nav>
<script>
${DRIVER}
function findAPI(w) { for (var i = 0; w && i < 10; i++) { if (w.API) return w.API; if (w.parent === w) break; w = w.parent; } return null; }
var api = findAPI(window);
var SUSPEND = '${SUSPEND_4096}';
function leave() {
  if (terminated) return;
  terminated = true;
  api.LMSSetValue('cmi.core.session_time', timespan(Date.now() - started));
  api.LMSFinish('');
}
api.LMSInitialize('');
var data = api.LMSGetValue('cmi.suspend_data');
show('entry', api.LMSGetValue('cmi.core.entry') || '(none)');
show('location', api.LMSGetValue('cmi.core.lesson_location') || '(none)');
show('suspend-length', String(data.length));
show('intact', String(data === SUSPEND));
show('mastery', api.LMSGetValue('cmi.student_data.mastery_score') || '(none)');
if (api.LMSGetValue('cmi.core.entry') === 'resume' && data && window.confirm('Resume where you left off?')) show('slide-title', 'Resumed at ' + api.LMSGetValue('cmi.core.lesson_location'));
else show('slide-title', 'Slide 1');
if (api.LMSGetValue('cmi.core.lesson_status') === 'not attempted') api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
document.getElementById('half').onclick = function () {
  api.LMSSetValue('cmi.core.lesson_location', 'slide-7');
  api.LMSSetValue('cmi.suspend_data', SUSPEND);
  api.LMSSetValue('cmi.core.exit', 'suspend');
  api.LMSCommit('');
  show('location', 'slide-7 (committed)');
};
document.getElementById('finish').onclick = function () {
  var types = [['q1', 'true-false', 't'], ['q2', 'choice', 'a,b'], ['q3', 'fill-in', 'pfd'], ['q4', 'matching', 'a.1,b.2'],
    ['q5', 'performance', 'throw'], ['q6', 'sequencing', 'a,b,c'], ['q7', 'likert', '3'], ['q8', 'numeric', '15']];
  for (var n = 0; n < types.length; n++) {
    var p = 'cmi.interactions.' + n + '.';
    api.LMSSetValue(p + 'id', types[n][0]);
    api.LMSSetValue(p + 'type', types[n][1]);
    api.LMSSetValue(p + 'student_response', types[n][2]);
    api.LMSSetValue(p + 'result', 'correct');
    api.LMSSetValue(p + 'time', '10:0' + n + ':00');
  }
  api.LMSSetValue('cmi.core.score.raw', '${score}');
  api.LMSSetValue('cmi.core.score.min', '0');
  api.LMSSetValue('cmi.core.score.max', '100');
  api.LMSSetValue('cmi.core.lesson_status', 'completed');
  api.LMSSetValue('cmi.core.exit', '');
  api.LMSCommit('');
  window.alert('You scored ${score}%.');
  leave();
};
document.getElementById('exit').onclick = leave;
window.addEventListener('beforeunload', leave);
window.addEventListener('unload', leave);
</script></body></html>`;
}

/** A SCORM 1.2 package with adlcp:masteryscore and 4,096 characters of suspend data. */
export function real12Package(options: RealPackageOptions = {}): Uint8Array {
  const title = options.title ?? 'Water rescue awareness';
  return zipOf({
    'imsmanifest.xml': scorm12Manifest(title),
    'index_lms.html': real12Page(options),
    'lms/scormdriver.js': '// The tool\'s driver.\n',
    'story_content/styles.css': 'body { font-family: sans-serif; }\n',
    'story_content/logo.png': PNG,
  });
}

/**
 * A SCORM 2004 SCO that writes what the run-time refuses, mixed with what it accepts (as some tools
 * do): an objective at index "undefined", a read-only element, values out of their vocabularies and
 * ranges, an unknown element; and 251 interactions, which the run-time takes but the server keeps
 * only 250 of (the save naming the rest is sent again without them). It completes with 0.9 all the same.
 */
export const INVALID_WRITES_2004 = `
  api.SetValue('cmi.objectives.undefined.success_status', 'passed');
  api.SetValue('cmi.learner_id', 'someone-else');
  api.SetValue('cmi.score.scaled', '1.5');
  api.SetValue('cmi.completion_status', 'done');
  api.SetValue('cmi.interactions.0.type', 'essay');
  api.SetValue('cmi.core.lesson_status', 'passed');
  for (var i = 0; i <= 250; i++) {
    api.SetValue('cmi.interactions.' + i + '.id', 'q' + i);
    api.SetValue('cmi.interactions.' + i + '.type', 'true-false');
  }
  api.SetValue('cmi.location', 'end');
  api.SetValue('cmi.score.scaled', '0.9');
  api.SetValue('cmi.success_status', 'passed');
  api.SetValue('cmi.completion_status', 'completed');
  api.SetValue('cmi.exit', 'normal');
  api.Commit('');
  api.Terminate('');`;
