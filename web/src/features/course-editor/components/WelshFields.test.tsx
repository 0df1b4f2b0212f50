// The Welsh beside the English in the course editor: each form shows its Welsh fields (in Welsh, lang
// "cy"), fills them from the saved course, module, quiz or question, sends them (an empty one as null),
// keeps a Welsh twin for every option, and shows a server's field message under the Welsh field.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuthoringQuiz, QuizQuestion } from '@shared/authoring.ts';
import type { Course, CourseModule } from '@shared/catalogue.ts';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { courseKeys } from '@/lib/query-keys';
import { BasicInfoForm } from './BasicInfoForm';
import { ModuleDialog } from './ModuleDialog';
import { ModulesPanel } from './ModulesPanel';
import { QuestionForm } from './QuestionForm';
import { QuestionList } from './QuestionList';
import { QuizSettings } from './QuizSettings';
import { CourseEditor } from './CourseEditor';

const admin = makeUser({ role: 'ADMIN', services: ['UKAS'] });
const stamp = '2026-11-01T00:00:00Z';
const course: Course = {
  id: 'c1', title: 'Manual handling', description: 'Lifting and moving people safely, every year.', service: 'UKAS',
  titleCy: 'Codi a chario', descriptionCy: 'Codi a symud pobl yn ddiogel, bob blwyddyn.', availableInWelsh: false,
  coverImage: null, authorId: admin.id, author: null, duration: 2, level: 'BEGINNER', featured: false, requiresEnrollment: true,
  status: 'DRAFT', modules: 1, certificateValidMonths: 12, createdAt: stamp, updatedAt: stamp, enrollment: null,
};
const contentModule: CourseModule = {
  id: 'm1', courseId: 'c1', title: 'Lifting', titleCy: 'Codi', content: 'Bend your knees and keep your back straight.', contentCy: null,
  orderIndex: 1, duration: 15, hasQuiz: true, kind: 'content', image: null, createdAt: stamp, updatedAt: stamp, completed: false, read: false, quizPassed: false,
};
const scormModule: CourseModule = { ...contentModule, id: 'm2', title: 'Hoists', titleCy: null, content: null, kind: 'scorm', orderIndex: 2, hasQuiz: false };
const question: QuizQuestion = {
  id: 'x1', quizId: 'q1', questionText: 'Which comes first?', questionType: 'MULTIPLE_CHOICE', orderIndex: 1, points: 1,
  options: [{ text: 'Assess', isCorrect: true }, { text: 'Lift', isCorrect: false }, { text: 'Carry', isCorrect: false }], correctAnswers: [0],
  explanation: 'Always assess the load first.', questionCy: 'Beth sy’n dod gyntaf?', optionsCy: ['Asesu', 'Codi', 'Cario'], explanationCy: null,
  createdAt: stamp, updatedAt: stamp,
};
const quiz: AuthoringQuiz = {
  id: 'q1', moduleId: 'm1', title: 'Lifting quiz', description: 'Check what you know.', titleCy: 'Cwis codi', descriptionCy: null,
  passingScore: 80, timeLimit: null, randomizeQuestions: false, showCorrectAnswers: 'AFTER_PASSING', maxAttempts: null, retryWaitMinutes: 0,
  createdAt: stamp, updatedAt: stamp, questions: [question],
};

const bodyOf = (requests: { method: string; path: string; body: unknown }[], method: string, path: string) =>
  requests.find((r) => r.method === method && r.path === path)?.body as Record<string, unknown> | undefined;

describe('Basic Information in Welsh and English', () => {
  it('shows the Welsh title and description beside the English, filled from the course, and sends them', async () => {
    const api = fakeApi({ 'PUT /courses/c1': { body: { ...course, updatedAt: '2026-11-02T00:00:00Z' } } });
    const { user } = renderWithProviders(<BasicInfoForm user={admin} course={course} onCreated={() => {}} onStatusChange={() => {}} />, { user: admin });
    const titleCy = screen.getByLabelText('Title (Welsh)');
    const descriptionCy = screen.getByLabelText('Description (Welsh)');
    expect(titleCy).toHaveValue('Codi a chario');
    expect(titleCy).toHaveAttribute('lang', 'cy');
    expect(descriptionCy).toHaveValue('Codi a symud pobl yn ddiogel, bob blwyddyn.');
    expect(descriptionCy).toHaveAttribute('lang', 'cy');
    await user.clear(descriptionCy);
    await user.clear(titleCy);
    await user.click(titleCy);
    await user.paste('Trin â llaw');
    await user.click(screen.getByRole('button', { name: 'Update Course' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/courses/c1')).toBeDefined());
    // The emptied description is null: it clears the saved Welsh.
    expect(bodyOf(api.requests, 'PUT', '/courses/c1')).toMatchObject({ title: 'Manual handling', titleCy: 'Trin â llaw', descriptionCy: null });
  });

  it("shows the server's message on the Welsh title under that field", async () => {
    fakeApi({ 'PUT /courses/c1': { status: 400, body: { message: 'Validation failed', fields: { titleCy: 'The Welsh title must be at most 200 characters' } } } });
    const { user } = renderWithProviders(<BasicInfoForm user={admin} course={course} onCreated={() => {}} onStatusChange={() => {}} />, { user: admin });
    await user.click(screen.getByRole('button', { name: 'Update Course' }));
    await waitFor(() => expect(screen.getByLabelText('Title (Welsh)')).toHaveAccessibleDescription(/The Welsh title must be at most 200 characters/));
  });

  it("marks the course Available in Welsh or English only in the editor's header", async () => {
    renderWithProviders(<CourseEditor user={admin} courseId="c1" />, {
      user: admin,
      queryData: [[courseKeys.detail('c1'), course], [courseKeys.modules('c1'), [contentModule]]],
    });
    expect(await screen.findByText('English only')).toBeInTheDocument();
  });
});

describe('the module dialog in Welsh and English', () => {
  it("a content module: the Welsh title and content, filled and sent (an empty one as null)", async () => {
    const api = fakeApi({ 'PUT /modules/m1': { body: contentModule } });
    const { user } = renderWithProviders(<ModuleDialog courseId="c1" module={contentModule} nextOrder={2} onClose={() => {}} />, { user: admin });
    const titleCy = await screen.findByLabelText('Module Title (Welsh)');
    const contentCy = screen.getByLabelText('Module Content (Welsh)');
    expect(titleCy).toHaveValue('Codi');
    expect(titleCy).toHaveAttribute('lang', 'cy');
    expect(contentCy).toHaveValue('');
    expect(contentCy).toHaveAttribute('lang', 'cy');
    await user.click(screen.getByRole('button', { name: 'Update Module' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/modules/m1')).toBeDefined());
    expect(bodyOf(api.requests, 'PUT', '/modules/m1')).toMatchObject({ title: 'Lifting', titleCy: 'Codi', contentCy: null });
    await user.click(contentCy);
    await user.paste('Plygwch eich pengliniau a chadwch eich cefn yn syth.');
    await user.click(screen.getByRole('button', { name: 'Update Module' }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(2));
    expect(api.requests.filter((r) => r.method === 'PUT')[1]!.body).toMatchObject({ contentCy: 'Plygwch eich pengliniau a chadwch eich cefn yn syth.' });
  });

  it('a new session module: its Welsh introduction beside the English, sent with its kind', async () => {
    const api = fakeApi({ 'POST /courses/c1/modules': { status: 201, body: { ...contentModule, id: 'm3', kind: 'session' } } });
    const { user } = renderWithProviders(<ModuleDialog courseId="c1" nextOrder={3} onClose={() => {}} />, { user: admin });
    await user.click(await screen.findByRole('radio', { name: 'Classroom session' }));
    await user.type(screen.getByLabelText('Module Title'), 'Classroom day');
    await user.click(screen.getByLabelText('Module Content'));
    await user.paste('Meet at the drill yard at nine, in full kit.');
    const contentCy = screen.getByLabelText('Module Content (Welsh)');
    expect(contentCy).toHaveAttribute('lang', 'cy');
    await user.click(contentCy);
    await user.paste('Cyfarfod ar yr iard ddril am naw, yn eich cit llawn.');
    await user.click(screen.getByRole('button', { name: 'Create Module' }));
    await waitFor(() => expect(bodyOf(api.requests, 'POST', '/courses/c1/modules')).toBeDefined());
    expect(bodyOf(api.requests, 'POST', '/courses/c1/modules')).toMatchObject({
      kind: 'session', title: 'Classroom day', contentCy: 'Cyfarfod ar yr iard ddril am naw, yn eich cit llawn.',
    });
  });

  it("a practical: a saved Welsh introduction is filled and an emptied one cleared", async () => {
    const practical: CourseModule = { ...contentModule, id: 'm4', kind: 'assessment', hasQuiz: false, content: 'Your assessor watches you.',
      contentCy: 'Mae eich aseswr yn eich gwylio chi.' };
    const api = fakeApi({ 'PUT /modules/m4': { body: practical } });
    const { user } = renderWithProviders(<ModuleDialog courseId="c1" module={practical} nextOrder={3} onClose={() => {}} />, { user: admin });
    const contentCy = await screen.findByLabelText('Module Content (Welsh)');
    expect(contentCy).toHaveValue('Mae eich aseswr yn eich gwylio chi.');
    await user.clear(contentCy);
    await user.click(screen.getByRole('button', { name: 'Update Module' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/modules/m4')).toBeDefined());
    expect(bodyOf(api.requests, 'PUT', '/modules/m4')).toMatchObject({ content: 'Your assessor watches you.', contentCy: null });
  });

  it('a SCORM module: only the Welsh title', async () => {
    const api = fakeApi({ 'PUT /modules/m2': { body: scormModule } });
    const { user } = renderWithProviders(<ModuleDialog courseId="c1" module={scormModule} nextOrder={3} onClose={() => {}} />, { user: admin });
    await user.click(await screen.findByLabelText('Module Title (Welsh)'));
    await user.paste('Teclynnau codi');
    expect(screen.queryByLabelText('Module Content (Welsh)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update Module' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/modules/m2')).toBeDefined());
    const body = bodyOf(api.requests, 'PUT', '/modules/m2')!;
    expect(body).toMatchObject({ title: 'Hoists', titleCy: 'Teclynnau codi' });
    expect(body).not.toHaveProperty('contentCy');
  });

  it('marks the modules and questions with no Welsh version', async () => {
    renderWithProviders(<ModulesPanel courseId="c1" onNeedCourse={() => {}} />, {
      user: admin,
      queryData: [[courseKeys.modules('c1'), [contentModule, { ...scormModule, titleCy: 'Teclynnau codi' },
        { ...contentModule, id: 'm5', kind: 'session', orderIndex: 3, hasQuiz: false },
        { ...contentModule, id: 'm6', kind: 'assessment', orderIndex: 4, hasQuiz: false, content: '' }]]],
    });
    const cards = await screen.findAllByTestId('module-card');
    // The content module lacks its Welsh body; the SCORM module needs only its title.
    expect(within(cards[0]!).getByText('No Welsh version')).toBeInTheDocument();
    expect(within(cards[1]!).queryByText('No Welsh version')).not.toBeInTheDocument();
    // A session's English introduction needs its Welsh; a practical without an introduction needs only its title.
    expect(within(cards[2]!).getByText('No Welsh version')).toBeInTheDocument();
    expect(within(cards[3]!).queryByText('No Welsh version')).not.toBeInTheDocument();
  });

  it('marks a question lacking its Welsh explanation', () => {
    renderWithProviders(<QuestionList courseId="c1" moduleId="m1" quiz={{ ...quiz, questions: [question, { ...question, id: 'x2', orderIndex: 2, explanation: null }] }} />, { user: admin });
    const cards = screen.getAllByTestId('question-card');
    expect(within(cards[0]!).getByText('No Welsh version')).toBeInTheDocument();
    expect(within(cards[1]!).queryByText('No Welsh version')).not.toBeInTheDocument();
  });
});

describe('quiz settings in Welsh and English', () => {
  it('shows the Welsh title and description, filled from the quiz, and sends them', async () => {
    const api = fakeApi({ 'PUT /modules/m1/quiz': { body: quiz } });
    const { user } = renderWithProviders(<QuizSettings courseId="c1" module={contentModule} quiz={quiz} />, { user: admin });
    const titleCy = screen.getByLabelText('Quiz Title (Welsh)');
    const descriptionCy = screen.getByLabelText('Quiz Description (Welsh)');
    expect(titleCy).toHaveValue('Cwis codi');
    expect(titleCy).toHaveAttribute('lang', 'cy');
    expect(descriptionCy).toHaveValue('');
    expect(screen.getByText('No Welsh version')).toBeInTheDocument();
    await user.click(descriptionCy);
    await user.paste('Gwiriwch beth rydych chi’n ei wybod.');
    await user.click(screen.getByRole('button', { name: 'Update Quiz' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/modules/m1/quiz')).toBeDefined());
    expect(bodyOf(api.requests, 'PUT', '/modules/m1/quiz')).toMatchObject({ titleCy: 'Cwis codi', descriptionCy: 'Gwiriwch beth rydych chi’n ei wybod.' });
  });
});

describe('the question form in Welsh and English', () => {
  it('shows the Welsh question, options and explanation, filled from the question, and sends them all', async () => {
    const api = fakeApi({ 'PUT /questions/x1': { body: question } });
    const { user } = renderWithProviders(<QuestionForm courseId="c1" moduleId="m1" quizId="q1" question={question} onDone={() => {}} />, { user: admin });
    expect(screen.getByLabelText('Question Text (Welsh)')).toHaveValue('Beth sy’n dod gyntaf?');
    expect(screen.getByLabelText('Question Text (Welsh)')).toHaveAttribute('lang', 'cy');
    expect(['Option 1 (Welsh)', 'Option 2 (Welsh)', 'Option 3 (Welsh)'].map((label) => (screen.getByLabelText(label) as HTMLInputElement).value)).toEqual(['Asesu', 'Codi', 'Cario']);
    expect(screen.getByLabelText('Option 2 (Welsh)')).toHaveAttribute('lang', 'cy');
    expect(screen.getByLabelText('Explanation (Welsh)')).toHaveValue('');
    await user.click(screen.getByLabelText('Explanation (Welsh)'));
    await user.paste('Aseswch y llwyth bob amser yn gyntaf.');
    await user.click(screen.getByRole('button', { name: 'Save Question' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/questions/x1')).toBeDefined());
    expect(bodyOf(api.requests, 'PUT', '/questions/x1')).toMatchObject({
      questionText: 'Which comes first?',
      questionCy: 'Beth sy’n dod gyntaf?',
      optionsCy: ['Asesu', 'Codi', 'Cario'],
      explanationCy: 'Aseswch y llwyth bob amser yn gyntaf.',
    });
  });

  it("adds and removes an option's Welsh twin with the option, keeping their order", async () => {
    const api = fakeApi({ 'PUT /questions/x1': { body: question } });
    const { user } = renderWithProviders(<QuestionForm courseId="c1" moduleId="m1" quizId="q1" question={question} onDone={() => {}} />, { user: admin });
    await user.click(screen.getByRole('button', { name: 'Add Option' }));
    expect(screen.getByLabelText('Option 4')).toHaveValue('');
    expect(screen.getByLabelText('Option 4 (Welsh)')).toHaveValue('');
    await user.click(screen.getByLabelText('Option 4'));
    await user.paste('Report');
    await user.type(screen.getByLabelText('Option 4 (Welsh)'), 'Adrodd');
    await user.click(screen.getByRole('button', { name: 'Remove option 2' }));
    expect(screen.queryByLabelText('Option 4 (Welsh)')).not.toBeInTheDocument();
    expect(['Option 1 (Welsh)', 'Option 2 (Welsh)', 'Option 3 (Welsh)'].map((label) => (screen.getByLabelText(label) as HTMLInputElement).value)).toEqual(['Asesu', 'Cario', 'Adrodd']);
    await user.click(screen.getByRole('button', { name: 'Save Question' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/questions/x1')).toBeDefined());
    const body = bodyOf(api.requests, 'PUT', '/questions/x1')!;
    expect((body.options as { text: string }[]).map((o) => o.text)).toEqual(['Assess', 'Carry', 'Report']);
    expect(body.optionsCy).toEqual(['Asesu', 'Cario', 'Adrodd']);
  });

  it('a new question with no Welsh sends the Welsh as null', async () => {
    const api = fakeApi({ 'POST /quizzes/q1/questions': { body: question } });
    const { user } = renderWithProviders(<QuestionForm courseId="c1" moduleId="m1" quizId="q1" onDone={() => {}} />, { user: admin });
    await user.click(screen.getByLabelText('Question Text'));
    await user.paste('Which comes first?');
    await user.click(screen.getByLabelText('Option 1'));
    await user.paste('Assess');
    await user.type(screen.getByLabelText('Option 2'), 'Lift');
    await user.click(screen.getByRole('button', { name: 'Save Question' }));
    await waitFor(() => expect(bodyOf(api.requests, 'POST', '/quizzes/q1/questions')).toBeDefined());
    expect(bodyOf(api.requests, 'POST', '/quizzes/q1/questions')).toMatchObject({ questionCy: null, optionsCy: null, explanationCy: null });
  });

  it("shows the server's message on optionsCy.1 under the second option's Welsh", async () => {
    fakeApi({ 'PUT /questions/x1': { status: 400, body: { message: 'Validation failed', fields: { 'optionsCy.1': 'Every Welsh option needs a text of at most 500 characters' } } } });
    const { user } = renderWithProviders(<QuestionForm courseId="c1" moduleId="m1" quizId="q1" question={question} onDone={() => {}} />, { user: admin });
    await user.click(screen.getByRole('button', { name: 'Save Question' }));
    await waitFor(() => expect(screen.getByLabelText('Option 2 (Welsh)')).toHaveAccessibleDescription(/Every Welsh option needs a text of at most 500 characters/));
    expect(screen.getByLabelText('Option 2 (Welsh)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Option 1 (Welsh)')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Option 2')).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses a Welsh option left empty while the others have Welsh, under that option', async () => {
    const api = fakeApi({});
    const { user } = renderWithProviders(<QuestionForm courseId="c1" moduleId="m1" quizId="q1" question={question} onDone={() => {}} />, { user: admin });
    await user.clear(screen.getByLabelText('Option 3 (Welsh)'));
    await user.click(screen.getByRole('button', { name: 'Save Question' }));
    expect(await screen.findByLabelText('Option 3 (Welsh)')).toHaveAttribute('aria-invalid', 'true');
    expect(api.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
