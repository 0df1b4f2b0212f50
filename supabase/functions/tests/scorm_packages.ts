// Builds SCORM packages in the shapes real authoring tools export, and malformed ones, for the tests
// of issue 20 (the upload's checks, the run-time and the player import these). Real zips, made with
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
