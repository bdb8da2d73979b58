/** Times in the page, written by the one formatter (useTimeFormat). */
import type { ReactNode } from 'react';
import { useTimeFormat } from './useTimeFormat';

/** An absolute time: "2026-05-01 12:54:30 UTC+02:00". */
export function DateTime({ iso, className }: { iso: string; className?: string }) {
  const tf = useTimeFormat();
  return (
    <time dateTime={iso} className={className}>
      {tf.dateTime(iso)}
    </time>
  );
}

/**
 * A relative time ("Fetched 3 min ago", "in 8 min") with its absolute time on hover, so two of
 * them can still be compared to the second. `describe` words the hover text around the time.
 */
export function RelativeTime({ iso, children, className, testId, describe }: { iso: string; children: ReactNode; className?: string; testId?: string; describe?: (time: string) => string }) {
  const tf = useTimeFormat();
  const time = tf.dateTime(iso);
  return (
    <time dateTime={iso} className={className} title={describe ? describe(time) : time} data-testid={testId}>
      {children}
    </time>
  );
}
