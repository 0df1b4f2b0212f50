// The six service categories every course belongs to. Shared by the web app
// and the api function; imports nothing so it runs unchanged in Deno and in the browser.

export const SERVICE_CODES = ['UKPS', 'UKAS', 'UKFRS', 'UKHW', 'AUX', 'MISC'] as const;
export type ServiceCode = (typeof SERVICE_CODES)[number];

export interface ServiceInfo {
  code: ServiceCode;
  /** Full name, e.g. "United Kingdom Police Service". */
  label: string;
  /** Badge and dot colour: a Mantine colour name. */
  color: string;
}

export const SERVICES: Record<ServiceCode, ServiceInfo> = {
  UKPS: { code: 'UKPS', label: 'United Kingdom Police Service', color: 'blue' },
  UKAS: { code: 'UKAS', label: 'United Kingdom Ambulance Service', color: 'green' },
  UKFRS: { code: 'UKFRS', label: 'United Kingdom Fire Rescue Service', color: 'red' },
  UKHW: { code: 'UKHW', label: 'United Kingdom Highways', color: 'orange' },
  AUX: { code: 'AUX', label: 'Auxiliary Services', color: 'violet' },
  MISC: { code: 'MISC', label: 'Miscellaneous Service', color: 'teal' },
};

/** Colour used for a badge whose service is unknown. */
export const UNKNOWN_SERVICE_COLOR = 'gray';

export function isServiceCode(value: unknown): value is ServiceCode {
  return typeof value === 'string' && (SERVICE_CODES as readonly string[]).includes(value);
}

export function serviceLabel(code: string): string {
  return isServiceCode(code) ? SERVICES[code].label : code;
}

export function serviceColor(code: string): string {
  return isServiceCode(code) ? SERVICES[code].color : UNKNOWN_SERVICE_COLOR;
}
