/** A settings card before its settings are read: its title, then a spinner, or why they could not be read. */
import { Spinner } from '../../components/Spinner';

export function SettingsCardState({ titleId, title, what, error }: { titleId: string; title: string; /** "team settings": "The team settings could not be read: …" */ what: string; error: Error | null }) {
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {error ? (
        <p className="field-error">
          The {what} could not be read: {error.message}
        </p>
      ) : (
        <Spinner label="Loading" />
      )}
    </section>
  );
}
