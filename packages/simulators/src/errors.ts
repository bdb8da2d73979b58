/**
 * Errors a simulator handler throws; each renders in the style of its API (spec 2.5):
 * custom (/mgmt), YANG (/api) or OAuth (/auth and bearer checks, JSON or XML per MN-12).
 */
export type ApiStyle = 'custom' | 'yang' | 'oauth';

/** MN-23: the more_info address of custom error bodies. */
export const ERRORS_URL = 'https://docs.mgmt-node.invalid/errors';

export abstract class SimError extends Error {
  abstract readonly style: ApiStyle;
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** `{"error":{"http_status_code","code","message","description"?,"more_info"}}` */
export class CustomError extends SimError {
  readonly style = 'custom' as const;
  constructor(
    status: number,
    readonly code: number,
    message: string,
    readonly description?: string,
    headers?: Record<string, string>,
  ) {
    super(status, message, headers);
  }

  body(): object {
    return {
      error: {
        http_status_code: this.status,
        code: this.code,
        message: this.message,
        ...(this.description !== undefined ? { description: this.description } : {}),
        // Real nodes write the address of "no application code" as …/errors/null (issue 8).
        more_info: `${ERRORS_URL}/${this.code === 0 ? 'null' : this.code}`,
      },
    };
  }
}

/**
 * The flat error body real nodes answer on their custom (/vnms → /mgmt) paths for a missing
 * object (recorded: an unknown device workflow): exactly six keys, `http_status_code` rather than
 * Spring's `status`, and a message with a leading and a trailing space as recorded.
 * `{"timestamp":<epoch ms>,"http_status_code","error":<reason>,"exception","message","path"}`
 */
export class VnmsError extends SimError {
  readonly style = 'custom' as const;
  constructor(
    status: number,
    readonly reason: string,
    message: string,
    readonly exception = 'com.mgmt.common.exception.VOAEException',
  ) {
    super(status, message);
  }

  body(path: string, now: number): object {
    return { timestamp: now, http_status_code: this.status, error: this.reason, exception: this.exception, message: this.message, path };
  }
}

/** `{"errors":{"error":[{"error-message","error-urlpath","error-tag"}]}}` */
export class YangError extends SimError {
  readonly style = 'yang' as const;
  constructor(
    status: number,
    readonly tag: string,
    message: string,
    headers?: Record<string, string>,
  ) {
    super(status, message, headers);
  }

  body(urlpath: string): object {
    return { errors: { error: [{ 'error-message': this.message, 'error-urlpath': urlpath, 'error-tag': this.tag }] } };
  }
}

/** `{"error","error_description"}`, or the MN-12 XML form. */
export class OAuthError extends SimError {
  readonly style = 'oauth' as const;
  constructor(
    status: number,
    readonly error: string,
    description: string,
    headers?: Record<string, string>,
  ) {
    super(status, description, headers);
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function oauthErrorXml(e: OAuthError): string {
  return `<?xml version="1.0" encoding="UTF-8"?><oauth-error><error>${xmlEscape(e.error)}</error><error_description>${xmlEscape(e.message)}</error_description></oauth-error>`;
}

/** Generic protocol errors (405, 415, malformed body) in the style of the API that was called. */
export function styledError(style: ApiStyle, status: 400 | 405 | 415, description: string, headers?: Record<string, string>): SimError {
  const custom = { 400: [4017, 'Invalid request'], 405: [0, 'Method Not Allowed'], 415: [0, 'Unsupported Media Type'] } as const;
  const yangTag = { 400: 'malformed-message', 405: 'operation-not-supported', 415: 'invalid-value' } as const;
  if (style === 'oauth') return new OAuthError(status, 'invalid_request', description, headers);
  if (style === 'yang') return new YangError(status, yangTag[status], description, headers);
  const [code, message] = custom[status];
  return new CustomError(status, code, message, description, headers);
}
