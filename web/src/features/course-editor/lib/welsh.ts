// The Welsh beside the English in the editor's forms: an empty Welsh field is sent as null (no Welsh
// version), and what is left to translate is worked out from the API's Welsh fields.
import type { AuthoringQuiz, QuizQuestion } from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';

/** A Welsh field's value for the API: blank is null (none). */
export function welshOrNull(text: string | null | undefined): string | null {
  return text == null || text.trim() === '' ? null : text;
}

/** The Welsh options for the API: null when none is filled in; otherwise every one, in the options' order. */
export function welshOptionsOrNull(texts: readonly string[]): string[] | null {
  return texts.every((text) => text.trim() === '') ? null : [...texts];
}

/** A true/false question's options in Welsh (the glossary's "gwir, gau"), twins of True and False. */
export const TRUE_FALSE_OPTIONS_CY = ['Gwir', 'Gau'] as const;

/** A module still lacks Welsh, by the server's rule (available_in_welsh): its title, or its body (a content module's; a
 * session's or a practical's introduction when it has one in English; a SCORM package's never). */
export function moduleLacksWelsh(module: Pick<CourseModule, 'kind' | 'titleCy' | 'content' | 'contentCy'>): boolean {
  if (!module.titleCy) return true;
  if (module.kind === 'scorm' || module.contentCy) return false;
  return module.kind === 'content' || (module.content ?? '').trim() !== '';
}

/** A question still lacks Welsh: its text, its options or (when it has one) its explanation. */
export function questionLacksWelsh(question: Pick<QuizQuestion, 'questionCy' | 'optionsCy' | 'explanation' | 'explanationCy'>): boolean {
  return !question.questionCy || !question.optionsCy || (Boolean(question.explanation) && !question.explanationCy);
}

/** A quiz's settings still lack Welsh: its title or (when it has one) its description. */
export function quizLacksWelsh(quiz: Pick<AuthoringQuiz, 'titleCy' | 'description' | 'descriptionCy'>): boolean {
  return !quiz.titleCy || (Boolean(quiz.description) && !quiz.descriptionCy);
}
