// The time left on a timed quiz, from the server's deadline corrected by the server-device clock
// offset. Calls onExpire once at zero. Announced politely once a minute, not every second.
import { Text } from '@mantine/core';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

export function Countdown({ deadline, offsetMs, onExpire }: { deadline: string; offsetMs: number; onExpire: () => void }) {
  const { t } = useTranslation('learning');
  const end = new Date(deadline).getTime();
  const remaining = () => end - (Date.now() + offsetMs);
  const [left, setLeft] = useState(remaining);
  const fired = useRef(false);

  const tick = useEffectEvent(() => {
    const value = remaining();
    setLeft(value);
    if (value <= 0 && !fired.current) {
      fired.current = true;
      onExpire();
    }
  });
  // Restarted only for a new end or clock offset, not each render (onExpire is new each time).
  useEffect(() => {
    const timer = setInterval(() => tick(), 1000);
    return () => clearInterval(timer);
  }, [end, offsetMs]);

  const minutesLeft = Math.ceil(Math.max(0, left) / 60_000);
  return (
    <div>
      <Text fw={700} role="timer" aria-label={t('countdown.timerLabel', { time: formatRemaining(left) })} c={left < 60_000 ? 'red.9' : undefined}>
        {t('countdown.timeRemaining', { time: formatRemaining(left) })}
      </Text>
      <Text size="xs" c="dimmed" aria-live="polite" style={{ position: 'absolute', left: -10000 }}>
        {t('countdown.minutesLeft', { count: minutesLeft })}
      </Text>
    </div>
  );
}
