/** `?`: every keyboard shortcut of the window, from the one list the handlers use (shortcuts.ts). */
import { Fragment } from 'react';
import { Dialog } from '../components/Dialog';
import { SHORTCUTS } from './shortcuts';

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog
      title="Keyboard shortcuts"
      description="Everything in Northbound works from the keyboard."
      onClose={onClose}
      testId="shortcuts-dialog"
      footer={
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Close
        </button>
      }
    >
      {SHORTCUTS.map((group) => (
        <section key={group.title} className="shortcut-group" aria-label={group.title}>
          <h3>{group.title}</h3>
          <dl className="shortcut-list">
            {group.shortcuts.map((s) => (
              <Fragment key={s.what}>
                <dt>
                  {s.chords.map((chord, i) => (
                    <Fragment key={chord.join('+')}>
                      {i > 0 ? <span className="shortcut-sep"> / </span> : null}
                      {chord.map((k, j) => (
                        <Fragment key={k}>
                          {j > 0 ? <span className="shortcut-sep">+</span> : null}
                          <kbd>{k}</kbd>
                        </Fragment>
                      ))}
                    </Fragment>
                  ))}
                </dt>
                <dd>{s.what}</dd>
              </Fragment>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}
