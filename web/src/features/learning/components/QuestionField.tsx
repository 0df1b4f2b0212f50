// One question of a quiz as the learner answers it: radio buttons when one option is correct,
// checkboxes and "Select all that apply" when several are (scored only when exactly those are chosen).
// The question and options in the reader's language (the answer is the option's index, whichever
// language it was read in); English shown to a Welsh reader is in lang="en-GB". The quiz marks it.
import { Checkbox, Radio, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LearnerQuiz } from '@shared/quiz.ts';
import { type Localised, useLocalise } from '@/components/Localised';

export type Answer = number | number[];

type Question = LearnerQuiz['questions'][number];

type Localise = ReturnType<typeof useLocalise>;

/** Option texts in the reader's language: the Welsh only as a whole set matching the options one for one. */
export function localisedOptions(localise: Localise, options: { text: string }[], optionsCy: string[] | null): Localised[] {
  const welsh = optionsCy && optionsCy.length === options.length ? optionsCy : null;
  return options.map((option, index) => localise(option.text, welsh?.[index]));
}

/** A question shown with some English to a Welsh reader (its text or its options). */
export function questionInEnglish(localise: Localise, question: Pick<Question, 'questionText' | 'questionCy' | 'options' | 'optionsCy'>): boolean {
  return localise(question.questionText, question.questionCy).fallback || localisedOptions(localise, question.options, question.optionsCy).some((option) => option.fallback);
}

export function QuestionField({ question, number, value, onChange }: {
  question: Question;
  number: number;
  value: Answer | undefined;
  onChange: (value: Answer) => void;
}) {
  const { t } = useTranslation('learning');
  const localise = useLocalise();
  const points = t('questionField.points', { count: question.points });
  const text = localise(question.questionText, question.questionCy);
  const options = localisedOptions(localise, question.options, question.optionsCy);
  const label = (
    <>
      {number}. <span lang={text.lang}>{text.text}</span>
    </>
  );
  if (question.multipleAnswers) {
    const chosen = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return (
      <Checkbox.Group
        label={label}
        description={t('questionField.selectAll', { points })}
        value={chosen.map(String)}
        onChange={(values) => onChange(values.map(Number).sort((a, b) => a - b))}
      >
        <Stack gap="xs" mt="xs">
          {options.map((option, optionIndex) => (
            <Checkbox key={optionIndex} value={String(optionIndex)} label={<span lang={option.lang}>{option.text}</span>} />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  }
  return (
    <Radio.Group
      name={`question-${question.id}`}
      label={label}
      description={t('questionField.selectOne', { points })}
      value={value === undefined || Array.isArray(value) ? null : String(value)}
      onChange={(choice) => onChange(Number(choice))}
    >
      <Stack gap="xs" mt="xs">
        {options.map((option, optionIndex) => (
          <Radio key={optionIndex} value={String(optionIndex)} label={<span lang={option.lang}>{option.text}</span>} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

/** Whether a question has an answer: a choice, or at least one ticked box. */
export function isAnswered(value: Answer | undefined): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}
