// Route guards: a spinner while the user loads, visitors to /auth (remembering
// where they were going), non-admins away from /admin.
import { Navigate, Outlet, useLocation } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '@/components/PageSpinner';

export function RequireUser() {
  const { t } = useTranslation();
  const { data: user, isPending } = useUser();
  const location = useLocation();
  if (isPending) return <PageSpinner label={t('checkingSession')} />;
  if (!user) {
    const redirect = `${location.pathname}${location.search}`;
    return <Navigate to={`/auth?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  return <Outlet />;
}

export function RequireAdmin() {
  const { t } = useTranslation();
  const { data: user, isPending } = useUser();
  if (isPending) return <PageSpinner label={t('checkingSession')} />;
  if (user?.role !== 'ADMIN') return <Navigate to="/" replace />;
  return <Outlet />;
}

/** A person still holding a temporary password sees only "Choose a new password". */
export const CHOOSE_PASSWORD_PATH = '/choose-password';

export function RequirePasswordChosen() {
  const { data: user } = useUser();
  const location = useLocation();
  if (user?.mustChangePassword && location.pathname !== CHOOSE_PASSWORD_PATH) {
    return <Navigate to={CHOOSE_PASSWORD_PATH} replace />;
  }
  return <Outlet />;
}
