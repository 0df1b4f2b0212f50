// Splits a site name such as "Emergency Services Learning v3" into the name and the version badge
// the header shows; any other name is shown whole.
export function splitSiteName(siteName: string): { name: string; version: string | null } {
  const match = /^(.*\S)\s+(v\d+(?:\.\d+)*)$/.exec(siteName.trim());
  return match ? { name: match[1], version: match[2] } : { name: siteName.trim(), version: null };
}
