// A question with several correct answers is answered with checkboxes, so the learner can choose
// every correct option (with radio buttons they could choose only one and were always marked wrong).
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { renderWithProviders } from '@/test/render';
import { type Answer, isAnswered, QuestionField } from './QuestionField';

/** The field with its answer kept, as the quiz keeps it. */
function Kept({ multiple, onChange }: { multiple: boolean; onChange: (value: Answer) => void }) {
  const [value, setValue] = useState<Answer | undefined>(undefined);
  return <QuestionField question={question(multiple)} number={1} value={value} onChange={(next) => { setValue(next); onChange(next); }} />;
}

const question = (multipleAnswers: boolean) => ({
  id: 'q1', questionText: 'Which of these are JESIP principles?', questionType: 'MULTIPLE_CHOICE', orderIndex: 1, points: 2,
  options: [{ text: 'Co-locate' }, { text: 'Delegate' }, { text: 'Communicate' }], multipleAnswers,
  questionCy: null as string | null, optionsCy: null as string[] | null,
});
const welsh = (multipleAnswers: boolean) => ({
  ...question(multipleAnswers),
  questionCy: 'Pa rai o’r rhain sy’n egwyddorion JESIP?',
  optionsCy: ['Cydleoli', 'Dirprwyo', 'Cyfathrebu'],
});

describe('QuestionField', () => {
  it('answers a question with several correct options with checkboxes, and says so', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Kept multiple onChange={onChange} />);
    expect(screen.getByText('2 points · Select all that apply')).toBeInTheDocument();
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    await user.click(screen.getByRole('checkbox', { name: 'Communicate' }));
    expect(onChange).toHaveBeenLastCalledWith([2]);
    await user.click(screen.getByRole('checkbox', { name: 'Co-locate' }));
    expect(onChange).toHaveBeenLastCalledWith([0, 2]);
  });

  it('answers a question with one correct option with radio buttons', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<QuestionField question={question(false)} number={2} value={undefined} onChange={onChange} />);
    expect(screen.getByText('2 points · Select one answer')).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(3);
    await user.click(screen.getByRole('radio', { name: 'Delegate' }));
    expect(onChange).toHaveBeenLastCalledWith(1);
  });

  it('counts a question as answered once a box is ticked or a choice made', () => {
    expect(isAnswered(undefined)).toBe(false);
    expect(isAnswered([])).toBe(false);
    expect(isAnswered([1])).toBe(true);
    expect(isAnswered(0)).toBe(true);
  });

  it('shows a Welsh reader the Welsh question and options, answering by the option’s index', async () => {
    await i18n.changeLanguage('cy');
    const onChange = vi.fn();
    const { user, container } = renderWithProviders(<QuestionField question={welsh(false)} number={1} value={undefined} onChange={onChange} />);
    expect(screen.getByText('Pa rai o’r rhain sy’n egwyddorion JESIP?')).toHaveAttribute('lang', 'cy');
    await user.click(screen.getByRole('radio', { name: 'Dirprwyo' }));
    expect(onChange).toHaveBeenLastCalledWith(1);
    expect(container.querySelector('[lang="en-GB"]')).toBeNull();
    expect(screen.queryByText('Co-locate')).toBeNull();
  });

  it('shows a Welsh reader the English question and options where there is no Welsh, in lang="en-GB"', async () => {
    await i18n.changeLanguage('cy');
    const onChange = vi.fn();
    const { user } = renderWithProviders(<QuestionField question={{ ...welsh(true), optionsCy: null }} number={1} value={undefined} onChange={onChange} />);
    expect(screen.getByText('Pa rai o’r rhain sy’n egwyddorion JESIP?')).toHaveAttribute('lang', 'cy');
    expect(screen.getByText('Communicate')).toHaveAttribute('lang', 'en-GB');
    await user.click(screen.getByRole('checkbox', { name: 'Communicate' }));
    expect(onChange).toHaveBeenLastCalledWith([2]);
    renderWithProviders(<QuestionField question={question(false)} number={2} value={undefined} onChange={onChange} />);
    expect(screen.getByText('Which of these are JESIP principles?')).toHaveAttribute('lang', 'en-GB');
  });

  it('shows an English reader the English only', () => {
    renderWithProviders(<QuestionField question={welsh(false)} number={1} value={undefined} onChange={vi.fn()} />);
    expect(screen.getByText('Which of these are JESIP principles?')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Delegate' })).toBeInTheDocument();
    expect(screen.queryByText(/Dirprwyo|egwyddorion/)).toBeNull();
  });
});
