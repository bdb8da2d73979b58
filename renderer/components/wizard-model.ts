/**
 * The wizard's steps, the fields each one owns, and where a server issue belongs. Values are the
 * input of the shared DeviceRecord schema, so each step validates exactly what main validates.
 */
import type { FieldPath } from 'react-hook-form';
import { AppError } from '../../shared/model/errors';
import { issueText } from '../../shared/validation/error-map';
import type { DeviceRecordInput } from '../../shared/model/inventory';

export type WizardValues = { deviceName: string; siteId: string; orgName: string; serialNumber: string; deviceGroup: string; locationInfo: { country: string; latitude: string; longitude: string } };
export type WizardField = FieldPath<WizardValues> & FieldPath<DeviceRecordInput>;

export type StepId = 'organization' | 'identity' | 'location' | 'group' | 'review' | 'deploy';

export const STEPS: readonly { id: StepId; label: string; fields: readonly WizardField[] }[] = [
  { id: 'organization', label: 'Organization', fields: ['orgName'] },
  { id: 'identity', label: 'Identity', fields: ['deviceName', 'siteId', 'serialNumber'] },
  { id: 'location', label: 'Location', fields: ['locationInfo.country', 'locationInfo.latitude', 'locationInfo.longitude'] },
  { id: 'group', label: 'Device group', fields: ['deviceGroup'] },
  { id: 'review', label: 'Review', fields: [] },
  { id: 'deploy', label: 'Deploy', fields: [] },
];

export const emptyWizardValues = (): WizardValues => ({ deviceName: '', siteId: '', orgName: '', serialNumber: '', deviceGroup: '', locationInfo: { country: '', latitude: '', longitude: '' } });

const ALL_FIELDS = new Set<string>(STEPS.flatMap((s) => s.fields));
const SHORT: Record<string, WizardField> = { country: 'locationInfo.country', latitude: 'locationInfo.latitude', longitude: 'locationInfo.longitude' };

/** A server issue path as a form field: `device.siteId` (request check) or `siteId` (the node's answer). */
export function fieldOfPath(path: string): WizardField | undefined {
  const p = path.replace(/^device\./, '');
  if (ALL_FIELDS.has(p)) return p as WizardField;
  return SHORT[p];
}

export const stepOfField = (field: WizardField): number => STEPS.findIndex((s) => s.fields.includes(field));

/** `details.issues` of any AppError (a request check, or the node refusing a field). */
export function issuesOf(error: unknown): { path: string; message: string }[] {
  if (!(error instanceof AppError)) return [];
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((i: unknown) => {
    const { path, message } = (i ?? {}) as { path?: unknown; message?: unknown };
    return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
  });
}

/** Issues of a failed onboard, split into the ones a field shows and the rest (each led by its field in words). */
export function placeIssues(error: unknown): { fields: { field: WizardField; message: string }[]; other: string[] } {
  const fields: { field: WizardField; message: string }[] = [];
  const other: string[] = [];
  for (const i of issuesOf(error)) {
    const field = fieldOfPath(i.path);
    if (field) fields.push({ field, message: i.message });
    else other.push(issueText(i));
  }
  return { fields, other };
}
