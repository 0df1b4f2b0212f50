// 'Start recertification' on an expiring or expired certificate: starts the course again at 0 %
// and opens it. Shown by the certificates list and the learner's enrolment cards.
import { Button, type ButtonProps } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useStartRecertification } from '@/lib/certificates';
import { useTranslation } from 'react-i18next';

export function RecertifyButton({ courseId, courseTitle, ...props }: { courseId: string; courseTitle: string } & ButtonProps) {
  const { t } = useTranslation();
  const recertify = useStartRecertification();
  const navigate = useNavigate();
  return (
    <Button
      leftSection={<IconRefresh size={16} aria-hidden />}
      loading={recertify.isPending}
      aria-label={t('recertify.labelFor', { title: courseTitle })}
      onClick={() =>
        // mutateAsync: the refreshed lists replace this button, and the course must open all the same.
        recertify.mutateAsync(courseId).then(
          () => {
            notifySuccess(t('recertify.started'), t('recertify.startedDetail', { title: courseTitle }));
            navigate(`/course/${courseId}`);
          },
          (error) => notifyFailure(t('recertify.failed'), errorDescription(error, t('recertify.tryAgain'))),
        )
      }
      {...props}
    >
      {t('recertify.label')}
    </Button>
  );
}
