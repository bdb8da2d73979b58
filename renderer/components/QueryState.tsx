/**
 * What a page or dialog shows while its read is on the way, and when it failed: one look and one
 * wording everywhere (the text says what is read; a failed read offers to try again).
 */
import type { ReactNode } from 'react';
import { Spinner } from './Spinner';

export function Loading({ children, status }: { children: ReactNode; status?: boolean }) {
  return (
    <div className="loading" role={status ? 'status' : undefined}>
      <Spinner /> {children}
    </div>
  );
}

export function LoadFailed({ children, onRetry }: { children: ReactNode; onRetry(): void }) {
  return (
    <div className="empty">
      <p>{children}</p>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
