/**
 * Where failures end up. A TLS trust problem opens the matching dialog; everything else is a
 * toast with the AppError's message as title and its hint as description. No stack traces.
 */
import { toast } from 'sonner';
import { CertificateInfo } from '../../shared/model/profile';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { EventPayload } from '../../shared/contract';
import type { ErrorContext } from '../api/query-client';
import { useUi } from '../stores/ui';

const certificateOf = (e: AppError): CertificateInfo | undefined => {
  const parsed = CertificateInfo.safeParse(e.details?.certificate);
  return parsed.success ? parsed.data : undefined;
};

const str = (x: unknown) => (typeof x === 'string' ? x : undefined);

export function reportError(error: unknown, context: ErrorContext = {}): void {
  if (error instanceof AppError) {
    // The team's database away (C-90): one banner on every page says so (TeamBanner), no toast per view.
    if (error.code === ErrorCodes.teamUnreachable) return;
    const { profileId } = context;
    if (profileId && error.code === ErrorCodes.tlsUntrusted) {
      const certificate = certificateOf(error);
      useUi.getState().openDialog({ kind: 'trust', profileId, ...(certificate ? { certificate } : {}) });
      return;
    }
    if (profileId && error.code === ErrorCodes.tlsPinMismatch) {
      const certificate = certificateOf(error);
      const expected = str(error.details?.expected);
      const actual = str(error.details?.actual) ?? certificate?.fingerprint256;
      useUi.getState().openDialog({
        kind: 'pin-mismatch',
        profileId,
        ...(expected ? { expected } : {}),
        ...(actual ? { actual } : {}),
        ...(certificate ? { certificate } : {}),
      });
      return;
    }
    toast.error(error.message, { description: error.hint, id: `${error.code}:${error.message}` });
    return;
  }
  toast.error('Something went wrong in this window.', { description: 'Try again; if it keeps happening, reload the window (Ctrl+R).' });
}

export function showNotice(notice: EventPayload<'notice'>): void {
  const opts = notice.hint ? { description: notice.hint } : {};
  if (notice.level === 'error') toast.error(notice.message, opts);
  else if (notice.level === 'warning') toast.warning(notice.message, opts);
  else toast.info(notice.message, opts);
}
