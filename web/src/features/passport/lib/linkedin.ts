// LinkedIn's "Add to profile" link for a certification: its name, the organisation that issued it,
// the month and year of issue and of expiry, the URL where it can be checked and its id. Months and
// years are London's, as the dates on screen.
const LINKEDIN_ADD = 'https://www.linkedin.com/profile/add';

function londonMonthYear(iso: string): { year: string; month: string } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: 'numeric' }).formatToParts(new Date(iso));
  const part = (type: string) => String(Number(parts.find((p) => p.type === type)!.value));
  return { year: part('year'), month: part('month') };
}

export function linkedInAddUrl(c: { name: string; organisation: string; issuedAt: string; validUntil: string | null; certUrl: string; certId: string }): string {
  const params = new URLSearchParams({ startTask: 'CERTIFICATION_NAME', name: c.name, organizationName: c.organisation });
  const issued = londonMonthYear(c.issuedAt);
  params.set('issueYear', issued.year);
  params.set('issueMonth', issued.month);
  if (c.validUntil) {
    const expires = londonMonthYear(c.validUntil);
    params.set('expirationYear', expires.year);
    params.set('expirationMonth', expires.month);
  }
  params.set('certUrl', c.certUrl);
  params.set('certId', c.certId);
  return `${LINKEDIN_ADD}?${params}`;
}
