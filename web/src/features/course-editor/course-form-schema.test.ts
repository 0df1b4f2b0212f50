// The three create-course forms (course editor, course manager dialog, admin Quick Add) apply one
// set of rules from the shared courseFormSchema, and the API's create/update schemas agree.
import { describe, expect, it } from 'vitest';
import {
  adminQuickCourseSchema,
  COURSE_DESCRIPTION_MIN,
  courseCreateSchema,
  courseEditorSchema,
  courseManagerSchema,
  courseUpdateSchema,
} from '@shared/authoring.ts';

const valid = {
  title: 'Water rescue awareness',
  description: 'x'.repeat(COURSE_DESCRIPTION_MIN),
  service: 'UKFRS',
  level: 'BEGINNER',
  duration: 2,
  status: 'DRAFT',
};

const forms = [
  ['course editor', courseEditorSchema],
  ['course manager', courseManagerSchema],
  ['Quick Add', adminQuickCourseSchema],
  ['API create', courseCreateSchema],
] as const;

/** The first message per field, as the forms show them (errorPriority 'first'). */
function messages(schema: { safeParse: (input: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success || !result.error) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    out[key] ??= issue.message;
  }
  return out;
}

describe('the shared course form rules', () => {
  it('uses a description minimum of 20 characters', () => {
    expect(COURSE_DESCRIPTION_MIN).toBe(20);
  });

  it.each(forms)('%s accepts a valid course', (_name, schema) => {
    expect(messages(schema, valid)).toEqual({});
  });

  it.each(forms)('%s refuses a 19-character description with the same message', (_name, schema) => {
    expect(messages(schema, { ...valid, description: 'x'.repeat(19) }).description).toBe('Description must be at least 20 characters');
  });

  it.each(forms)('%s says an empty title and description are required', (_name, schema) => {
    const m = messages(schema, { ...valid, title: '  ', description: '' });
    expect(m.title).toBe('Title is required');
    expect(m.description).toBe('Description is required');
    expect(messages(schema, { ...valid, title: 'ab' }).title).toBe('Title must be at least 3 characters');
  });

  it.each(forms.slice(0, 3))('%s requires a level', (_name, schema) => {
    const { level: _level, ...withoutLevel } = valid;
    expect(messages(schema, withoutLevel).level).toBe('Level is required');
    expect(messages(schema, { ...valid, level: 'EXPERT' }).level).toBe('Level is required');
  });

  it('the API update refuses what the forms refuse', () => {
    expect(messages(courseUpdateSchema, { description: 'x'.repeat(19) }).description).toBe('Description must be at least 20 characters');
    expect(messages(courseUpdateSchema, { level: 'EXPERT' }).level).toBe('Level is required');
    expect(messages(courseUpdateSchema, { description: 'x'.repeat(20) })).toEqual({});
  });
});
