// The names of the product's fixed values (roles, services, levels, states...) in the page's
// language, from the common catalogue: one wording of each, on every screen.
import type { CertificateState } from '@shared/certificates.ts';
import type { TrainingStatus } from '@shared/compliance.ts';
import type { CertificateTemplate, CourseAccess, CourseLevel, CourseStatus, Role } from '@shared/domain.ts';
import type { EmailStatus, NotificationKind } from '@shared/notifications.ts';
import type { AnswerDisplay } from '@shared/quiz.ts';
import type { MappedField, SignInProtocol } from '@shared/sign-in.ts';
import { i18n } from './i18n';

interface Labelled {
  role: Role;
  courseStatus: CourseStatus;
  courseLevel: CourseLevel;
  courseAccess: CourseAccess;
  certificateTemplate: CertificateTemplate;
  certificateState: CertificateState;
  trainingStatus: TrainingStatus;
  service: string;
  notificationKind: NotificationKind;
  emailStatus: EmailStatus;
  answerDisplay: AnswerDisplay;
  signInProtocol: SignInProtocol;
  mappedField: MappedField;
}

/** The name of a value in the page's language; an unknown value (a service code not listed) as it is. */
export function labelOf<K extends keyof Labelled>(kind: K, value: Labelled[K]): string {
  return i18n.t(`${kind}.${value}`, { ns: 'common', defaultValue: value });
}
