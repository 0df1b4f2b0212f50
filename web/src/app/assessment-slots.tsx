// Practical assessments (features/assessments) inside other features' screens: the module viewer,
// the course editor's module list, the admin Courses tab and the instructor dashboard. A feature never
// imports another, so the routes hand these in; each loads its own chunk when first shown.
import { lazy, Suspense } from 'react';
import type { AssessmentDialogSlot } from '@/features/course-editor/components/ModulesPanel';
import type { AssessorsDialogSlot } from '@/features/admin/components/CoursesTab';
import type { AssessmentPanelSlot } from '@/features/learning/components/ModuleViewer';

const LearnerAssessment = lazy(() => import('@/features/assessments/components/LearnerAssessment'));
const AssessmentDialog = lazy(() => import('@/features/assessments/components/AssessmentDialog'));
const CourseAssessorsDialog = lazy(() => import('@/features/assessments/components/CourseAssessorsDialog'));
const AssessmentsTab = lazy(() => import('@/features/assessments/components/AssessmentsTab').then((m) => ({ default: m.AssessmentsTab })));

export const assessmentPanel: AssessmentPanelSlot = (props) => (
  <Suspense fallback={null}>
    <LearnerAssessment {...props} />
  </Suspense>
);

export const assessmentDialog: AssessmentDialogSlot = (props) => (
  <Suspense fallback={null}>
    <AssessmentDialog {...props} />
  </Suspense>
);

export const assessorsDialog: AssessorsDialogSlot = (props) => (
  <Suspense fallback={null}>
    <CourseAssessorsDialog {...props} />
  </Suspense>
);

export function AssessmentsTabSlot() {
  return (
    <Suspense fallback={null}>
      <AssessmentsTab />
    </Suspense>
  );
}
