// The quiz in Welsh, from start to result: pass mark and time limit, the countdown, each question's
// points and instructions, the unanswered warning, then the score, the marks and the retry.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LearnerQuiz, QuizResult } from '@shared/quiz.ts';
import { i18n } from '@/lib/i18n/i18n';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { QuizPanel } from './QuizPanel';

const attempts = { used: 0, max: 3, remaining: 3, nextAttemptAt: null };
const summary = { id: 'q1', title: 'JESIP check', description: null, titleCy: null, descriptionCy: null, passingScore: 80, timeLimit: 10, showCorrectAnswers: 'ALWAYS' as const, attempts };
const now = new Date();
const quiz: LearnerQuiz = {
  id: 'q1', moduleId: 'm1', courseId: 'c1', title: 'JESIP check', description: null, titleCy: null, descriptionCy: null, passingScore: 80, timeLimit: 10, randomizeQuestions: false,
  questions: [{ id: 'x1', questionText: 'Which comes first?', questionType: 'MULTIPLE_CHOICE', orderIndex: 1, points: 2, options: [{ text: 'Delegate' }, { text: 'Co-locate' }], questionCy: null, optionsCy: null, multipleAnswers: false }],
  attempt: { id: 'a1', startedAt: now.toISOString(), deadline: new Date(now.getTime() + 10 * 60_000).toISOString() },
  serverNow: now.toISOString(), passed: false, lastResult: null, attempts, showCorrectAnswers: 'ALWAYS',
};
const result: QuizResult = {
  id: 'r1', quizId: 'q1', score: 0, maxScore: 2, percentage: 0, passingScore: 80, passed: false, startedAt: now.toISOString(), completedAt: now.toISOString(),
  answersShown: true,
  questions: [{ id: 'x1', chosen: [0], correctAnswers: [1], correct: false, options: [{ text: 'Delegate', isCorrect: false }, { text: 'Co-locate', isCorrect: true }], explanation: null, optionsCy: null, explanationCy: null }],
  attempts: { used: 1, max: 3, remaining: 2, nextAttemptAt: null }, moduleCompleted: false, enrollment: null,
};

describe('QuizPanel', () => {
  it('runs a quiz in Welsh, from start to result', async () => {
    await i18n.changeLanguage('cy');
    fakeApi({ 'GET /modules/m1/quiz': { body: quiz }, 'POST /quizzes/q1/attempts': { body: result } });
    const { user } = renderWithProviders(<QuizPanel moduleId="m1" summary={summary} canTake passedBefore={false} />, { user: makeUser() });
    expect(screen.getByRole('heading', { name: 'Cwis: JESIP check' })).toBeInTheDocument();
    expect(screen.getByText('Marc llwyddo 80% · Terfyn amser 10 munud')).toBeInTheDocument();
    expect(screen.getByText('3 ymgais ar ôl.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "Dechrau'r cwis" }));
    expect(await screen.findByRole('form', { name: 'Cwestiynau JESIP check' })).toBeInTheDocument();
    expect(screen.getByText(/^Amser ar ôl: \d+:\d\d$/)).toBeInTheDocument();
    expect(screen.getByText('2 bwynt · Dewiswch un ateb')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "Cyflwyno'r atebion" }));
    expect(screen.getByRole('alert')).toHaveTextContent('Atebwch bob cwestiwn cyn cyflwyno');
    await user.click(screen.getByRole('radio', { name: 'Delegate' }));
    await user.click(screen.getByRole('button', { name: "Cyflwyno'r atebion" }));
    expect(await screen.findByRole('heading', { name: 'Heb lwyddo yn y cwis' })).toBeInTheDocument();
    expect(screen.getByText('Eich sgôr oedd 0 o 2 (0%). Y marc llwyddo yw 80%.')).toBeInTheDocument();
    expect(screen.getByText('Anghywir')).toBeInTheDocument();
    // The options have no Welsh: shown in English, in lang="en-GB", the quiz marked once.
    expect(screen.getAllByText('Delegate').find((node) => node.closest('[data-testid="quiz-result"]'))).toHaveAttribute('lang', 'en-GB');
    expect(screen.getByText((_, node) => node?.tagName === 'P' && node.textContent === 'Eich ateb: Delegate')).toBeInTheDocument();
    expect(screen.getByText((_, node) => node?.tagName === 'P' && node.textContent === 'Yr ateb cywir: Co-locate')).toBeInTheDocument();
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
    expect(screen.getByText('2 ymgais ar ôl.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rhoi cynnig arall arni' })).toBeInTheDocument();
  });

  it('keeps the English wording in English', () => {
    renderWithProviders(<QuizPanel moduleId="m1" summary={{ ...summary, timeLimit: null }} canTake={false} passedBefore />);
    expect(screen.getByText('Pass mark 80% · No time limit')).toBeInTheDocument();
    expect(screen.getByText('Passed')).toBeInTheDocument();
    expect(screen.getByText('Enrol in this course to take its quiz.')).toBeInTheDocument();
  });

  it('runs a quiz in Welsh where it has Welsh: title, description, question, options, result and explanation, unmarked', async () => {
    await i18n.changeLanguage('cy');
    const welshQuiz: LearnerQuiz = {
      ...quiz, titleCy: 'Prawf JESIP',
      questions: [{ ...quiz.questions[0], questionCy: "Beth sy'n dod gyntaf?", optionsCy: ['Dirprwyo', 'Cydleoli'] }],
    };
    const welshResult: QuizResult = {
      ...result,
      questions: [{ ...result.questions[0], explanation: 'Co-locate first.', explanationCy: 'Cydleoli yn gyntaf.', optionsCy: ['Dirprwyo', 'Cydleoli'] }],
    };
    fakeApi({ 'GET /modules/m1/quiz': { body: welshQuiz }, 'POST /quizzes/q1/attempts': { body: welshResult } });
    const welshSummary = { ...summary, titleCy: 'Prawf JESIP', description: 'Five questions.', descriptionCy: 'Pum cwestiwn.' };
    const { user, container } = renderWithProviders(<QuizPanel moduleId="m1" summary={welshSummary} canTake passedBefore={false} />, { user: makeUser() });
    expect(screen.getByRole('heading', { name: 'Cwis: Prawf JESIP' })).toBeInTheDocument();
    expect(screen.getByText('Pum cwestiwn.')).toHaveAttribute('lang', 'cy');
    await user.click(screen.getByRole('button', { name: "Dechrau'r cwis" }));
    expect(await screen.findByRole('form', { name: 'Cwestiynau Prawf JESIP' })).toBeInTheDocument();
    expect(screen.getByText("Beth sy'n dod gyntaf?")).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Dirprwyo' }));
    await user.click(screen.getByRole('button', { name: "Cyflwyno'r atebion" }));
    const shown = await screen.findByTestId('quiz-result');
    expect(within(shown).getByText('Eich ateb: Dirprwyo')).toBeInTheDocument();
    expect(within(shown).getByText('Yr ateb cywir: Cydleoli')).toBeInTheDocument();
    expect(within(shown).getByText('Cydleoli yn gyntaf.')).toHaveAttribute('lang', 'cy');
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    expect(container.querySelector('[lang="en-GB"]')).toBeNull();
  });

  it('shows a Welsh reader the English title and explanation where there is no Welsh, in lang="en-GB", marked once', async () => {
    await i18n.changeLanguage('cy');
    const englishResult: QuizResult = { ...result, questions: [{ ...result.questions[0], explanation: 'Co-locate first.' }] };
    fakeApi({ 'GET /modules/m1/quiz': { body: quiz }, 'POST /quizzes/q1/attempts': { body: englishResult } });
    const { user } = renderWithProviders(<QuizPanel moduleId="m1" summary={{ ...summary, description: 'Five questions.' }} canTake passedBefore />, { user: makeUser() });
    expect(screen.getByRole('heading', { name: 'Cwis: JESIP check' })).toBeInTheDocument();
    expect(screen.getByText('JESIP check')).toHaveAttribute('lang', 'en-GB');
    expect(screen.getByText('Five questions.')).toHaveAttribute('lang', 'en-GB');
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Sefyll y cwis eto' }));
    expect(await screen.findByText('Which comes first?')).toHaveAttribute('lang', 'en-GB');
    await user.click(screen.getByRole('radio', { name: 'Delegate' }));
    await user.click(screen.getByRole('button', { name: "Cyflwyno'r atebion" }));
    expect(await screen.findByText('Co-locate first.')).toHaveAttribute('lang', 'en-GB');
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
  });

  it('shows an English reader the English only, unmarked', () => {
    renderWithProviders(
      <QuizPanel moduleId="m1" summary={{ ...summary, titleCy: 'Prawf JESIP', description: 'Five questions.', descriptionCy: 'Pum cwestiwn.' }} canTake={false} passedBefore />,
    );
    expect(screen.getByRole('heading', { name: 'Quiz: JESIP check' })).toBeInTheDocument();
    expect(screen.getByText('Five questions.')).toBeInTheDocument();
    expect(screen.queryByText(/Prawf|Pum/)).toBeNull();
    expect(screen.queryByText('Not available in Welsh')).toBeNull();
  });
});
