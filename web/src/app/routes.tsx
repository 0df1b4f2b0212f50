// The route table. Every page is lazy-loaded; guards wrap the protected ones.
import type { RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { RequireAdmin, RequirePasswordChosen, RequireUser } from './guards';

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    // While the first page's code loads, the layout shows with a spinner in place of the page.
    hydrateFallbackElement: <AppLayout pageLoading />,
    children: [{
    element: <RequirePasswordChosen />,
    children: [
      { index: true, lazy: () => import('./routes/home').then((m) => ({ Component: m.HomeRoute })) },
      { path: 'auth', lazy: () => import('./routes/auth').then((m) => ({ Component: m.AuthRoute })) },
      {
        element: <RequireUser />,
        children: [
          { path: 'my-courses', lazy: () => import('./routes/my-courses').then((m) => ({ Component: m.MyCoursesRoute })) },
          { path: 'choose-password', lazy: () => import('./routes/choose-password').then((m) => ({ Component: m.ChoosePasswordRoute })) },
          { path: 'dashboard', lazy: () => import('./routes/dashboard').then((m) => ({ Component: m.DashboardRoute })) },
          { path: 'profile', lazy: () => import('./routes/profile').then((m) => ({ Component: m.ProfileRoute })) },
          { path: 'notifications', lazy: () => import('./routes/notifications').then((m) => ({ Component: m.NotificationsRoute })) },
          { path: 'certificates', lazy: () => import('./routes/certificates').then((m) => ({ Component: m.CertificatesRoute })) },
          { path: 'passport', lazy: () => import('./routes/passport').then((m) => ({ Component: m.PassportRoute })) },
          { path: 'learning-record', lazy: () => import('./routes/learning-record').then((m) => ({ Component: m.LearningRecordRoute })) },
          { path: 'course-manager', lazy: () => import('./routes/course-manager').then((m) => ({ Component: m.CourseManagerRoute })) },
          { path: 'sessions/:id/register', lazy: () => import('./routes/session-register').then((m) => ({ Component: m.SessionRegisterRoute })) },
          { path: 'instructor', lazy: () => import('./routes/instructor').then((m) => ({ Component: m.InstructorRoute })) },
          { path: 'instructor/assessments', lazy: () => import('./routes/assessments').then((m) => ({ Component: m.AssessmentQueueRoute })) },
          { path: 'instructor/assessments/module/:moduleId', lazy: () => import('./routes/assessments').then((m) => ({ Component: m.AssessmentLearnersRoute })) },
          { path: 'instructor/assessments/records/:recordId', lazy: () => import('./routes/assessments').then((m) => ({ Component: m.AssessRecordRoute })) },
          { path: 'compliance', lazy: () => import('./routes/compliance').then((m) => ({ Component: m.ComplianceRoute })) },
          { path: 'team', lazy: () => import('./routes/team').then((m) => ({ Component: m.TeamRoute })) },
          { path: 'team/:personId', lazy: () => import('./routes/team-member').then((m) => ({ Component: m.TeamMemberRoute })) },
          { path: 'course-creator', lazy: () => import('./routes/course-editor').then((m) => ({ Component: m.CourseEditorRoute })) },
          { path: 'course/create', lazy: () => import('./routes/course-editor').then((m) => ({ Component: m.CourseEditorRoute })) },
          { path: 'course/edit/:id', lazy: () => import('./routes/course-editor').then((m) => ({ Component: m.CourseEditorRoute })) },
          {
            element: <RequireAdmin />,
            children: [
              { path: 'admin', lazy: () => import('./routes/admin').then((m) => ({ Component: m.AdminRoute })) },
              { path: 'admin/users/import', lazy: () => import('./routes/admin-user-import').then((m) => ({ Component: m.AdminUserImportRoute })) },
            ],
          },
        ],
      },
      { path: 'course/:id', lazy: () => import('./routes/course').then((m) => ({ Component: m.CourseRoute })) },
      { path: 'course/:id/module/:moduleId', lazy: () => import('./routes/module').then((m) => ({ Component: m.ModuleRoute })) },
      { path: 'accessibility', lazy: () => import('./routes/accessibility').then((m) => ({ Component: m.AccessibilityRoute })) },
      { path: 'help', lazy: () => import('./routes/help').then((m) => ({ Component: m.HelpRoute })) },
      { path: 'verify-credential', lazy: () => import('./routes/verify-credential').then((m) => ({ Component: m.VerifyCredentialRoute })) },
      { path: 'verify/:code', lazy: () => import('./routes/verify').then((m) => ({ Component: m.VerifyRoute })) },
      { path: 'auth/forgot', lazy: () => import('./routes/forgot-password').then((m) => ({ Component: m.ForgotPasswordRoute })) },
      { path: 'auth/callback', lazy: () => import('./routes/auth-callback').then((m) => ({ Component: m.AuthCallbackRoute })) },
      { path: '*', lazy: () => import('./routes/not-found').then((m) => ({ Component: m.NotFoundRoute })) },
    ],
    }, {
      // Outside RequirePasswordChosen: a reset link is how a person with a temporary password may
      // also set their own.
      path: 'auth/reset',
      lazy: () => import('./routes/reset-password').then((m) => ({ Component: m.ResetPasswordRoute })),
    }],
  },
];
