import { fingerprintLines } from '../../components/format';

/**
 * A SHA-256 fingerprint laid out for comparison: 4 lines of 8 bytes, in groups of 4. The text
 * content stays exactly the colon-separated fingerprint, so copying or reading it in a test
 * gives the real value.
 */
export function Fingerprint({ value, testId, tone }: { value: string; testId?: string; tone?: 'danger' | 'ok' }) {
  return (
    <div className={`fingerprint${tone ? ` fingerprint-${tone}` : ''}`} data-testid={testId} data-fingerprint={value} aria-label={`SHA-256 fingerprint ${value}`} role="group">
      {fingerprintLines(value).map((line, i) => (
        <span className="fingerprint-line" key={i}>
          {line.map((group, j) => (
            <span className="fingerprint-group" key={j}>
              {group}
            </span>
          ))}
        </span>
      ))}
    </div>
  );
}
