// 'Start recertification' on an expiring or expired certificate: starts the course again at 0 %
// and opens it. Shown by the certificates list and the learner's enrolment cards.
import { Button, type ButtonProps } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useStartRecertification } from '@/lib/certificates';

export function RecertifyButton({ courseId, courseTitle, ...props }: { courseId: string; courseTitle: string } & ButtonProps) {
  const recertify = useStartRecertification();
  const navigate = useNavigate();
  return (
    <Button
      leftSection={<IconRefresh size={16} aria-hidden />}
      loading={recertify.isPending}
      aria-label={`Start recertification: ${courseTitle}`}
      onClick={() =>
        // mutateAsync: the refreshed lists replace this button, and the course must open all the same.
        recertify.mutateAsync(courseId).then(
          () => {
            notifySuccess('Recertification started', `${courseTitle} starts again at 0 %. Your earlier certificate stays in your history.`);
            navigate(`/course/${courseId}`);
          },
          (error) => notifyFailure('Recertification could not start', errorDescription(error, 'Please try again.')),
        )
      }
      {...props}
    >
      Start recertification
    </Button>
  );
}
