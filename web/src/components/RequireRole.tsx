// A page for some roles only (/instructor, /compliance): a spinner while the user loads; anyone else
// gets the 'Access denied' toast, once, and goes to /. The API refuses them too (403), whatever the
// screen does.
import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import type { Role, User } from '@shared/domain.ts';
import { PageSpinner } from '@/components/PageSpinner';
import { useUser } from '@/lib/auth/user';
import { notifyFailure } from '@/lib/notify';
import { useTranslation } from 'react-i18next';

export function RequireRole({ roles, denied, children }: { roles: readonly Role[]; denied: string; children: (user: User) => ReactNode }) {
  const { t } = useTranslation();
  const { data: user, isPending } = useUser();
  const allowed = user ? roles.includes(user.role) : false;
  const warned = useRef(false);

  useEffect(() => {
    if (!isPending && !allowed && !warned.current) {
      warned.current = true;
      notifyFailure(t('accessDenied'), denied);
    }
  }, [isPending, allowed, denied, t]);

  if (isPending) return <PageSpinner label={t('checkingSession')} />;
  if (!user || !allowed) return <Navigate to="/" replace />;
  return children(user);
}
