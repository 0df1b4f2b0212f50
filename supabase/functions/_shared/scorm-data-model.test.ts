import { describe, expect, it } from 'vitest';
import {
  duration2004,
  DURATION_2004,
  elementCheck,
  initialCmi,
  learnerNameForScorm,
  scoStatus,
  timeSeconds,
  timespan12,
  validateScormValues,
} from './scorm-data-model';

describe('SCORM data model (what the content may write)', () => {
  it('accepts 1.2 writable elements with their vocabularies, types and lengths', () => {
    const { values, fields } = validateScormValues('1.2', {
      'cmi.core.lesson_status': 'passed',
      'cmi.core.lesson_location': 'page-3',
      'cmi.core.score.raw': '85',
      'cmi.core.score.max': '100',
      'cmi.core.score.min': '',
      'cmi.core.exit': 'suspend',
      'cmi.core.session_time': '0000:01:30.5',
      'cmi.suspend_data': 'x'.repeat(4096),
      'cmi.interactions.0.id': 'q1',
      'cmi.interactions.0.result': 'correct',
      'cmi.objectives.2.status': 'passed',
    });
    expect(fields).toEqual({});
    expect(Object.keys(values)).toHaveLength(11);
  });

  it('refuses 1.2 read-only, unknown and 2004 names, bad vocabularies, types and lengths, with a message each', () => {
    const { values, fields } = validateScormValues('1.2', {
      'cmi.core.student_id': 'me',
      'cmi.core.total_time': '0001:00:00',
      'cmi.completion_status': 'completed',
      'cmi.core.lesson_status': 'not attempted',
      'cmi.core.score.raw': '101',
      'cmi.core.session_time': 'PT1M',
      'cmi.suspend_data': 'x'.repeat(4097),
      'cmi.core.lesson_location': 'x'.repeat(256),
      'cmi.core.exit': 'normal',
      'cmi.core.score.max': 12 as unknown as string,
      'cmi.interactions.250.id': 'q',
    });
    expect(values).toEqual({});
    expect(Object.keys(fields).sort()).toEqual([
      'values.cmi.completion_status', 'values.cmi.core.exit', 'values.cmi.core.lesson_location',
      'values.cmi.core.lesson_status', 'values.cmi.core.score.max', 'values.cmi.core.score.raw',
      'values.cmi.core.session_time', 'values.cmi.core.student_id', 'values.cmi.core.total_time',
      'values.cmi.interactions.250.id', 'values.cmi.suspend_data',
    ]);
    expect(fields['values.cmi.suspend_data']).toBe('At most 4096 characters');
    expect(fields['values.cmi.core.score.raw']).toBe('Must be between 0 and 100');
    expect(fields['values.cmi.core.score.max']).toBe('Must be a string');
  });

  it('accepts 2004 elements and refuses what 2004 does not allow', () => {
    const ok = validateScormValues('2004', {
      'cmi.completion_status': 'completed',
      'cmi.success_status': 'passed',
      'cmi.score.scaled': '0.9',
      'cmi.score.raw': '-4.5',
      'cmi.session_time': 'PT1H2M3.5S',
      'cmi.location': 'x'.repeat(1000),
      'cmi.suspend_data': 'x'.repeat(64000),
      'cmi.exit': 'normal',
      'cmi.progress_measure': '1',
      'cmi.interactions.3.type': 'long-fill-in',
      'cmi.interactions.3.latency': 'PT5S',
      'cmi.comments_from_learner.0.timestamp': '2026-11-26T10:00:00Z',
      'adl.nav.request': 'continue',
    });
    expect(ok.fields).toEqual({});
    expect(ok.values['adl.nav.request']).toBeUndefined();
    const bad = validateScormValues('2004', {
      'cmi.completion_status': 'passed',
      'cmi.success_status': 'completed',
      'cmi.score.scaled': '1.5',
      'cmi.session_time': '0000:01:00',
      'cmi.suspend_data': 'x'.repeat(64001),
      'cmi.location': 'x'.repeat(1001),
      'cmi.learner_id': 'x',
      'cmi.core.lesson_status': 'passed',
      'cmi.total_time': 'PT1S',
    });
    expect(bad.values).toEqual({});
    expect(Object.keys(bad.fields)).toHaveLength(9);
  });

  it('reads durations and time spans strictly', () => {
    for (const good of ['PT1H', 'P1D', 'PT0.25S', 'P1Y2M3DT4H5M6S']) expect(DURATION_2004.test(good)).toBe(true);
    for (const bad of ['P', 'PT', 'P1H', 'PT1.234S', '1H']) expect(DURATION_2004.test(bad)).toBe(false);
    expect(elementCheck('1.2', 'cmi.core.session_time')!('12:60:00')).not.toBeNull();
    expect(elementCheck('1.2', 'cmi.core.session_time')!('9999:59:59.99')).toBeNull();
  });

  it('starts a session with the learner, the entry, the saved values and the total time', () => {
    const first = initialCmi('1.2', { learnerId: 'u1', learnerName: 'Sam Taylor', entry: 'ab-initio', saved: {}, totalSeconds: 0 });
    expect(first['cmi.core.student_name']).toBe('Taylor, Sam');
    expect(first['cmi.core.lesson_status']).toBe('not attempted');
    expect(first['cmi.core.entry']).toBe('ab-initio');
    expect(first['cmi.core.total_time']).toBe('0000:00:00.00');
    const again = initialCmi('2004', {
      learnerId: 'u1',
      learnerName: 'Sam Taylor',
      entry: 'resume',
      saved: { 'cmi.location': 'p4', 'cmi.suspend_data': 'abc', 'cmi.exit': 'suspend', 'cmi.interactions.0.id': 'q' },
      totalSeconds: 3723.5,
    });
    expect(again['cmi.location']).toBe('p4');
    expect(again['cmi.exit']).toBe('');
    expect(again['cmi.interactions.0.id']).toBeUndefined();
    expect(again['cmi.total_time']).toBe('PT1H2M3.5S');
    expect(timespan12(3723.5)).toBe('0001:02:03.50');
    expect(duration2004(0)).toBe('PT0S');
    expect(timeSeconds('0001:02:03.50')).toBe(3723.5);
    expect(timeSeconds('PT1H2M3.5S')).toBe(3723.5);
    expect(timeSeconds('P1DT1S')).toBe(86_401);
    expect(timeSeconds('an hour')).toBeNull();
    expect(learnerNameForScorm('Cher')).toBe('Cher');
  });

  it('starts with the manifest\'s objectives, passing score, threshold and mastery score; saved objectives come back', () => {
    const sco = { objectives: ['PRIMARYOBJ', 'obj_bleeding'], passingScore: '0.8', completionThreshold: '0.75', launchData: 'lang=en' };
    const first = initialCmi('2004', { learnerId: 'u1', learnerName: 'Sam Taylor', entry: 'ab-initio', saved: {}, totalSeconds: 0, sco });
    expect(first).toMatchObject({
      'cmi.objectives.0.id': 'PRIMARYOBJ',
      'cmi.objectives.1.id': 'obj_bleeding',
      'cmi.scaled_passing_score': '0.8',
      'cmi.completion_threshold': '0.75',
      'cmi.launch_data': 'lang=en',
    });
    const again = initialCmi('2004', {
      learnerId: 'u1', learnerName: 'Sam Taylor', entry: 'resume', totalSeconds: 0, sco,
      saved: { 'cmi.objectives.1.id': 'obj_bleeding', 'cmi.objectives.1.success_status': 'passed', 'cmi.scaled_passing_score': '0.1' },
    });
    expect(again['cmi.objectives.1.success_status']).toBe('passed');
    // What the manifest sets is the manifest's, whatever was saved.
    expect(again['cmi.scaled_passing_score']).toBe('0.8');
    const v12 = initialCmi('1.2', { learnerId: 'u1', learnerName: 'Sam Taylor', entry: '', saved: {}, totalSeconds: 0, sco: { masteryScore: '80' } });
    expect(v12['cmi.student_data.mastery_score']).toBe('80');
    expect(initialCmi('2004', { learnerId: 'u1', learnerName: 'S', entry: '', saved: {}, totalSeconds: 0 })['cmi.scaled_passing_score']).toBeUndefined();
  });

  it('names one status per SCO', () => {
    expect(scoStatus('completed', 'passed')).toBe('passed');
    expect(scoStatus('completed', 'failed')).toBe('failed');
    expect(scoStatus('completed', 'unknown')).toBe('completed');
    expect(scoStatus('incomplete', 'unknown')).toBe('incomplete');
    expect(scoStatus('unknown', 'unknown')).toBe('not attempted');
  });
});

describe('scorePercent', () => {
  it('answers a stored fraction as a percentage with one decimal', async () => {
    const { scorePercent } = await import('./scorm-data-model');
    expect(scorePercent(0.875)).toBe(87.5);
    expect(scorePercent('0.92')).toBe(92);
    expect(scorePercent(null)).toBeNull();
  });
});
