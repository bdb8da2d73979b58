/** An error in words for the alarm source's status and log (an AppError's message, else the error's). */
import { isAppError } from '../../shared/model/errors';

export function errorText(e: unknown): string {
  if (isAppError(e)) return e.message;
  return e instanceof Error ? e.message : String(e);
}
