// A pictogram per service (police shield, ambulance, flame, road, lifebuoy, category), in the
// service colour. Decorative unless given a label: the service name is always written beside it.
import {
  IconAmbulance,
  IconCategory,
  IconFlame,
  IconHelpCircle,
  IconLifebuoy,
  IconRoad,
  IconShieldHalfFilled,
} from '@tabler/icons-react';
import { isServiceCode, serviceColor, type ServiceCode } from '@shared/services.ts';

const ICONS: Record<ServiceCode, typeof IconAmbulance> = {
  UKPS: IconShieldHalfFilled,
  UKAS: IconAmbulance,
  UKFRS: IconFlame,
  UKHW: IconRoad,
  AUX: IconLifebuoy,
  MISC: IconCategory,
};

export function ServiceIcon({ code, size = 28, label }: { code: string; size?: number; label?: string }) {
  const Icon = isServiceCode(code) ? ICONS[code] : IconHelpCircle;
  return (
    <Icon
      size={size}
      stroke={1.6}
      color={`var(--mantine-color-${serviceColor(code)}-7)`}
      data-service-icon={code}
      aria-hidden={label ? undefined : true}
      aria-label={label}
      role={label ? 'img' : undefined}
    />
  );
}
