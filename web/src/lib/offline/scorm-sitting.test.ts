import { describe, expect, it } from 'vitest';
import type { OfflineSco } from '@shared/offline.ts';
import type { QueuedItem } from './device-store';
import { offlineStartCmi, sinceSent } from './scorm-sitting';

const person = '00000000-0000-4000-a000-000000000003';
const moduleId = '00000000-0000-4000-a000-0000000000aa';
const sco: OfflineSco = {
  id: 'sco-1',
  title: 'Water rescue awareness',
  href: 'index_lms.html',
  status: 'not attempted',
  cmi: { 'cmi.core.entry': 'ab-initio', 'cmi.core.lesson_location': '', 'cmi.suspend_data': '', 'cmi.core.lesson_status': 'not attempted', 'cmi.core.score.raw': '' },
};
const sitting = (values: Record<string, string>, scoId = 'sco-1', forModule = moduleId): QueuedItem => ({
  key: `k-${Object.keys(values).join()}`,
  queuedAt: '',
  item: { kind: 'scorm-sitting', personId: person, moduleId: forModule, scoId, values },
});

describe('offlineStartCmi', () => {
  it('starts from the download when nothing waits', () => {
    expect(offlineStartCmi(sco, moduleId, [])).toEqual(sco.cmi);
  });

  it('resumes from the sittings still waiting, in order, keeping only what a later sitting reads', () => {
    const cmi = offlineStartCmi(sco, moduleId, [
      sitting({ 'cmi.core.lesson_location': 'slide-3', 'cmi.core.session_time': '00:05:00', 'cmi.core.lesson_status': 'incomplete' }),
      sitting({ 'cmi.core.lesson_location': 'slide-7', 'cmi.suspend_data': 'abc' }),
    ]);
    expect(cmi).toEqual({
      'cmi.core.entry': 'resume',
      'cmi.core.lesson_location': 'slide-7',
      'cmi.suspend_data': 'abc',
      'cmi.core.lesson_status': 'incomplete',
      'cmi.core.score.raw': '',
    });
  });

  it('takes nothing from another SCO, another module, or elements the download does not start with', () => {
    const cmi = offlineStartCmi(sco, moduleId, [
      sitting({ 'cmi.core.lesson_location': 'elsewhere' }, 'sco-2'),
      sitting({ 'cmi.core.lesson_location': 'other module' }, 'sco-1', '00000000-0000-4000-a000-0000000000bb'),
      sitting({ 'cmi.location': 'a 2004 element' }),
    ]);
    expect(cmi).toEqual(sco.cmi);
  });
});

describe('sinceSent', () => {
  it('sends what the items already sent did not hold', () => {
    expect(sinceSent({ 'cmi.core.lesson_location': 'slide-7', 'cmi.suspend_data': 'abc' }, { 'cmi.suspend_data': 'abc' }))
      .toEqual({ 'cmi.core.lesson_location': 'slide-7' });
  });

  it('sends a session time as the time since the last item sent (each item is a session on the server)', () => {
    expect(sinceSent({ 'cmi.core.session_time': '0000:12:30.00' }, { 'cmi.core.session_time': '0000:05:00.00' }))
      .toEqual({ 'cmi.core.session_time': '0000:07:30.00' });
    expect(sinceSent({ 'cmi.session_time': 'PT1H' }, { 'cmi.session_time': 'PT15M' })).toEqual({ 'cmi.session_time': 'PT45M0S' });
    // Nothing sent before, or a time that went back: as reported.
    expect(sinceSent({ 'cmi.session_time': 'PT10M' }, {})).toEqual({ 'cmi.session_time': 'PT10M' });
    expect(sinceSent({ 'cmi.session_time': 'PT5M' }, { 'cmi.session_time': 'PT15M' })).toEqual({ 'cmi.session_time': 'PT5M' });
  });
});
