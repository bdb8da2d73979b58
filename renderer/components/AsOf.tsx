/** "as of 2026-05-01 12:54:30 UTC+02:00 · 3 min ago": when the data shown was collected, how old it is, and what else the page says of it. */
import type { ReactNode } from 'react';
import { agoText } from './format';
import { DateTime } from './Time';
import { useNow } from './useNow';

export function AsOf({ iso, prefix = 'as of', className = 'zta-asof', testId, children }: { iso: string | null; prefix?: string; className?: string; testId?: string; children?: ReactNode }) {
  const now = useNow();
  if (!iso) return null;
  return (
    <span className={className} data-testid={testId}>
      {prefix} <DateTime iso={iso} /> <span className="muted">· {agoText(iso, now)}</span>
      {children}
    </span>
  );
}
