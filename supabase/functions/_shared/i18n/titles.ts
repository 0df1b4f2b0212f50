// Titles in the reader's language (re-exported by index.ts; a module of its own so the catalogues'
// helpers can use it without importing the index that imports them).
import type { Language } from '../language.ts';

/**
 * The one place the title of a course is chosen for what the server writes (emails, certificates,
 * the learning record): the Welsh title (courses.title_cy, or a certificate's course_title_cy) for a
 * Welsh reader where there is one, else the English title.
 */
export function courseTitle(course: { title: string; titleCy?: string | null }, language: Language): string {
  return language === 'cy' && course.titleCy?.trim() ? course.titleCy : course.title;
}
