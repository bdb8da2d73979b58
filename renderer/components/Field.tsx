/** Labelled inputs with their hint and zod error underneath. */
import clsx from 'clsx';
import { useId, type ComponentProps, type ReactNode } from 'react';

interface Common {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
}

export function FieldMessage({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
  if (error) {
    return (
      <p className="field-error" id={`${id}-msg`}>
        {error}
      </p>
    );
  }
  return hint ? (
    <p className="field-hint" id={`${id}-msg`}>
      {hint}
    </p>
  ) : null;
}

export function TextField({ label, error, hint, className, id, ...input }: Common & Omit<ComponentProps<'input'>, 'className'>) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={clsx('field', className)}>
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={error || hint ? `${inputId}-msg` : undefined} {...input} />
      <FieldMessage id={inputId} error={error} hint={hint} />
    </div>
  );
}

export function TextAreaField({ label, error, hint, className, id, ...input }: Common & Omit<ComponentProps<'textarea'>, 'className'>) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={clsx('field', className)}>
      <label htmlFor={inputId}>{label}</label>
      <textarea id={inputId} aria-invalid={error ? true : undefined} aria-describedby={error || hint ? `${inputId}-msg` : undefined} {...input} />
      <FieldMessage id={inputId} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({ label, error, hint, className, id, children, ...select }: Common & Omit<ComponentProps<'select'>, 'className'>) {
  const auto = useId();
  const selectId = id ?? auto;
  return (
    <div className={clsx('field', className)}>
      <label htmlFor={selectId}>{label}</label>
      <select id={selectId} aria-invalid={error ? true : undefined} aria-describedby={error || hint ? `${selectId}-msg` : undefined} {...select}>
        {children}
      </select>
      <FieldMessage id={selectId} error={error} hint={hint} />
    </div>
  );
}

/** A checkbox styled as a switch, with its label on the right. */
export function SwitchField({ label, hint, className, id, ...input }: Omit<Common, 'error'> & Omit<ComponentProps<'input'>, 'className' | 'type'>) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={clsx('field field-inline', className)}>
      <input id={inputId} type="checkbox" role="switch" className="switch" aria-describedby={hint ? `${inputId}-msg` : undefined} {...input} />
      <label htmlFor={inputId}>{label}</label>
      <FieldMessage id={inputId} hint={hint} />
    </div>
  );
}

/** A radio or checkbox whose accessible name is just its label; the hint is its description. */
export function ChoiceOption({ label, hint, type, id, labelClassName, ...input }: { label: ReactNode; hint?: ReactNode; labelClassName?: string } & Omit<ComponentProps<'input'>, 'className'>) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="radio-option">
      <input id={inputId} type={type} aria-describedby={hint ? `${inputId}-hint` : undefined} {...input} />
      <span>
        <label htmlFor={inputId} className={clsx('radio-label', labelClassName)}>
          {label}
        </label>
        {hint ? (
          <span className="radio-hint" id={`${inputId}-hint`}>
            {hint}
          </span>
        ) : null}
      </span>
    </div>
  );
}
