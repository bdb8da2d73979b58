/**
 * Node refusals → issues on form fields (`details.issues: [{path, message}]`, the shape request
 * validation uses), so the onboarding wizard and the syslog form put each message under its
 * field. Paths are relative to the record: `siteId`, `orgName`, `locationInfo.country`, `port`.
 *
 * Devices (MN-42): "siteId in use" (HTTP 500, code 0) → `siteId`; 4016 ORG_NOT_FOUND → `orgName`;
 * 4017 whose description starts with a field path (`locationInfo.country: …`) → that path.
 * Syslog (MN-36): YANG `malformed-message` → `port` (or the field its message names), `data-exists` → `host`.
 */
import { AppError } from '../../shared/model/errors';
import type { DeviceRecord } from '../../shared/model/inventory';

export interface FieldIssue {
  path: string;
  message: string;
}

const DEVICE_FIELD = /^(deviceName|siteId|orgName|serialNumber|deviceGroup|locationInfo(?:\.(?:country|latitude|longitude))?)\s*:\s*(.*)$/s;
const SITE_IN_USE = /(global device id|site ?id).*(already )?in use/i;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const sentence = (s: string) => {
  const t = s.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

function fieldOf(description: string | undefined): FieldIssue | undefined {
  const m = description ? DEVICE_FIELD.exec(description.trim()) : null;
  return m ? { path: m[1] as string, message: sentence(m[2] || 'The node did not accept this value') } : undefined;
}

interface Mapped {
  issue: FieldIssue;
  message: string;
  hint: string;
}

function mapDevice(e: AppError, record: DeviceRecord | undefined): Mapped | undefined {
  const description = str(e.details?.description);
  const nodeMessage = str(e.details?.nodeMessage) ?? '';
  if (e.code === 'api.0' && (SITE_IN_USE.test(nodeMessage) || fieldOf(description)?.path === 'siteId')) {
    const holder = /device (\S+) uses/i.exec(description ?? '')?.[1];
    const id = record?.siteId ?? /id (\d+)/i.exec(nodeMessage)?.[1];
    const message = `Site ID ${id ?? ''} is already used by ${holder ? `device ${holder}` : 'another device'} on the node.`.replace('  ', ' ');
    return { issue: { path: 'siteId', message }, message, hint: 'Choose another site ID; the wizard can suggest the next free one.' };
  }
  if (e.code === 'api.4016') {
    const message = record ? `There is no organization named ${record.orgName} on the node.` : (fieldOf(description)?.message ?? 'The organization does not exist on the node.');
    return { issue: { path: 'orgName', message }, message, hint: 'Refresh the organizations and pick an existing one.' };
  }
  if (e.code === 'api.4017') {
    const issue = fieldOf(description);
    if (issue) return { issue, message: `The node did not accept ${issue.path}: ${issue.message}`, hint: 'Correct the highlighted field and try again.' };
  }
  return undefined;
}

/** The issues a device refusal names (empty when it names no field). */
export function deviceIssues(e: unknown, record?: DeviceRecord): FieldIssue[] {
  const m = e instanceof AppError ? mapDevice(e, record) : undefined;
  return m ? [m.issue] : [];
}

/** The same error with `details.issues` (and a message naming the field) when it is about a field; anything else unchanged. */
export function withDeviceIssues(e: unknown, record?: DeviceRecord): unknown {
  if (!(e instanceof AppError)) return e;
  const m = mapDevice(e, record);
  if (!m) return e;
  return new AppError(e.code, m.message, m.hint, { details: { ...e.details, issues: [m.issue] }, ...(e.status !== undefined ? { status: e.status } : {}), cause: e });
}

const SYSLOG_FIELD = /^server\/(host|port|enabled)\s*:?\s*(.*)$/s;

export function syslogIssues(e: unknown): FieldIssue[] {
  if (!(e instanceof AppError)) return [];
  const messages = Array.isArray(e.details?.messages) ? (e.details.messages as unknown[]).filter((m): m is string => typeof m === 'string') : [];
  if (e.code === 'yang.malformed-message' || e.code === 'yang.invalid-value') {
    const issues = messages.map((m) => {
      const f = SYSLOG_FIELD.exec(m.trim());
      return f ? { path: f[1] as string, message: sentence(f[2] || m) } : { path: 'port', message: sentence(m) };
    });
    return issues.length > 0 ? issues : [{ path: 'port', message: 'The node did not accept this port value.' }];
  }
  if (e.code === 'yang.data-exists') {
    const m = messages[0];
    const f = m ? SYSLOG_FIELD.exec(m.trim()) : null;
    return [{ path: 'host', message: f ? sentence(f[2] as string) : 'A syslog server with this host already exists on the node.' }];
  }
  return [];
}

export function withSyslogIssues(e: unknown): unknown {
  const issues = syslogIssues(e);
  if (!(e instanceof AppError) || issues.length === 0) return e;
  return new AppError(e.code, e.message, e.hint, { details: { ...e.details, issues }, ...(e.status !== undefined ? { status: e.status } : {}), cause: e });
}
