// One question of a quiz as the learner answers it: radio buttons when one option is correct,
// checkboxes and "Select all that apply" when several are (scored only when exactly those are chosen).
import { Checkbox, Radio, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LearnerQuiz } from '@shared/quiz.ts';

export type Answer = number | number[];

export function QuestionField({ question, number, value, onChange }: {
  question: LearnerQuiz['questions'][number];
  number: number;
  value: Answer | undefined;
  onChange: (value: Answer) => void;
}) {
  const { t } = useTranslation('learning');
  const points = t('questionField.points', { count: question.points });
  if (question.multipleAnswers) {
    const chosen = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return (
      <Checkbox.Group
        label={`${number}. ${question.questionText}`}
        description={t('questionField.selectAll', { points })}
        value={chosen.map(String)}
        onChange={(values) => onChange(values.map(Number).sort((a, b) => a - b))}
      >
        <Stack gap="xs" mt="xs">
          {question.options.map((option, optionIndex) => (
            <Checkbox key={optionIndex} value={String(optionIndex)} label={option.text} />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  }
  return (
    <Radio.Group
      name={`question-${question.id}`}
      label={`${number}. ${question.questionText}`}
      description={t('questionField.selectOne', { points })}
      value={value === undefined || Array.isArray(value) ? null : String(value)}
      onChange={(choice) => onChange(Number(choice))}
    >
      <Stack gap="xs" mt="xs">
        {question.options.map((option, optionIndex) => (
          <Radio key={optionIndex} value={String(optionIndex)} label={option.text} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

/** Whether a question has an answer: a choice, or at least one ticked box. */
export function isAnswered(value: Answer | undefined): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}
