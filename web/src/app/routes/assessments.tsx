// The assessor's pages of practical assessments (features/assessments), one lazy chunk:
// /instructor/assessments (the dashboard's tab, where a reassessment request's notice points),
// /instructor/assessments/module/:moduleId (the learners) and /instructor/assessments/records/:recordId.
// Any signed-in person: an organisation may name someone without the instructor role as a course's
// assessor, so the API decides who assesses whom (403 otherwise), not the role.
import { Navigate, useParams } from 'react-router';
import { AssessPage } from '@/features/assessments/components/AssessPage';
import { ModuleLearners } from '@/features/assessments/components/ModuleLearners';

export function AssessmentQueueRoute() {
  return <Navigate to="/instructor?tab=assessments" replace />;
}

export function AssessmentLearnersRoute() {
  const { moduleId = '' } = useParams();
  return <ModuleLearners key={moduleId} moduleId={moduleId} />;
}

export function AssessRecordRoute() {
  const { recordId = '' } = useParams();
  return <AssessPage key={recordId} recordId={recordId} />;
}
