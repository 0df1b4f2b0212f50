// What an administrator needs from a credential a new joiner brings, read in the browser (nothing is
// verified here: the server verifies every credential a learner adds): its issuer's id and name and
// its achievement's id and name, as the credential states them.
export interface CredentialFacts {
  issuerId: string;
  issuerName: string;
  achievementId: string;
  achievementName: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const object = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

export function credentialFacts(credential: Record<string, unknown>): CredentialFacts {
  const issuer = credential.issuer;
  const subject = object(Array.isArray(credential.credentialSubject) ? credential.credentialSubject[0] : credential.credentialSubject);
  const achievement = object(subject.achievement);
  return {
    issuerId: typeof issuer === 'string' ? issuer.trim() : text(object(issuer).id),
    issuerName: text(object(issuer).name),
    achievementId: text(achievement.id),
    achievementName: text(achievement.name),
  };
}
