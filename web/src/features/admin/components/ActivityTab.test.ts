// The Activity tab's sentences: in English exactly as the shared auditSentence (the CSV export's) says
// them, for every kind and shape of event; in Welsh in Welsh word order.
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '@shared/admin.ts';
import { AUDIT_KINDS, auditSentence as sharedSentence } from '@shared/audit.ts';
import { i18n } from '@/lib/i18n/i18n';
import { auditSentence } from './ActivityTab';

const event = (action: string, overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: 'e1', occurredAt: '2026-01-01T00:00:00.000Z', actor: { id: 'a1', name: 'Jordan Hughes', username: 'jordan' },
  action, targetType: 'x', targetId: null, targetLabel: 'Radio procedure', oldData: null, newData: null, ...overrides,
});

const shapes: Partial<AuditEvent>[] = [
  {},
  { targetLabel: null },
  { actor: null },
  { newData: { enrolled: 1 } },
  { newData: { enrolled: 12 } },
  { newData: { source: 'oidc', email: 'sam@example.org', problem: 'no such person' } },
  { newData: { passed: true, email: 'sam@example.org' } },
  { newData: { passed: false, problem: 'expired' } },
];

describe('auditSentence', () => {
  it('says every kind of event in English as the shared sentence does', () => {
    const t = i18n.getFixedT('en-GB', 'admin');
    for (const action of [...Object.keys(AUDIT_KINDS), 'something.new']) {
      for (const shape of shapes) expect(auditSentence(event(action, shape), t)).toBe(sharedSentence(event(action, shape)));
    }
  });

  it('says them in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const t = i18n.getFixedT('cy', 'admin');
    expect(auditSentence(event('course.published'), t)).toBe("Cyhoeddodd Jordan Hughes 'Radio procedure'");
    expect(auditSentence(event('user.created', { actor: null, targetLabel: null }), t)).toBe('Creodd y system y cyfrif eitem');
    expect(auditSentence(event('required_training.added', { newData: { enrolled: 3 } }), t))
      .toBe("Gwnaeth Jordan Hughes 'Radio procedure' yn hyfforddiant gorfodol (3 pherson wedi cofrestru)");
    expect(auditSentence(event('certificate.revoked'), t)).toBe("Dirymodd Jordan Hughes y dystysgrif 'Radio procedure'");
  });

  it('names a credential signing key rotation in English and Welsh', () => {
    expect(auditSentence(event('issuer.key_rotated', { targetLabel: 'Southshire Fire' }), i18n.getFixedT('en-GB', 'admin')))
      .toBe("Jordan Hughes: Credential signing key rotated 'Southshire Fire'");
    expect(i18n.getFixedT('cy', 'admin')('activityTab.kinds.issuer.key_rotated')).toBe("Allwedd llofnodi tystlythyrau wedi'i chylchdroi");
  });
});
