import clsx from 'clsx';
import type { SessionStatus } from '../../shared/model/session';
import { expiryText } from './format';
import { useNow } from './useNow';
import { useTimeFormat } from './useTimeFormat';

export function sessionLabel(status: SessionStatus | undefined, now: number): string {
  switch (status?.state) {
    case undefined:
    case 'signed-out':
      return 'Signed out';
    case 'signing-in':
      return 'Signing in…';
    case 'signed-in': {
      const exp = status.authMode === 'oauth' ? expiryText(status.accessTokenExpiresAt, now) : undefined;
      return exp ? `Signed in · ${exp}` : 'Signed in';
    }
    case 'sign-in-required':
      return 'Sign-in required';
    case 'error':
      return 'Error';
  }
}

export function SessionBadge({ status, testId = 'session-badge' }: { status: SessionStatus | undefined; testId?: string }) {
  const now = useNow();
  const tf = useTimeFormat();
  const state = status?.state ?? 'signed-out';
  // The countdown's absolute time on hover, so it can be compared with the node's logs.
  const expiresAt = status?.state === 'signed-in' && status.authMode === 'oauth' ? status.accessTokenExpiresAt : undefined;
  const title = status?.error ? `${status.error.message} ${status.error.hint}` : expiresAt ? `The access token expires at ${tf.dateTime(expiresAt)}` : undefined;
  return (
    <span className={clsx('badge', `badge-${state}`)} data-testid={testId} data-state={state} title={title}>
      <span className="badge-dot" aria-hidden="true" />
      {sessionLabel(status, now)}
    </span>
  );
}
