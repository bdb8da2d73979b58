/**
 * The "More actions" menu of a list row: the secondary actions behind one button, the row's
 * primary action stays beside it. Radix DropdownMenu gives the ARIA menu button pattern (Enter,
 * Space or ArrowDown open it on the first item, arrows and Home/End move, typeahead, Escape
 * closes it with focus back on the button, Tab leaves it).
 *
 * An item's action runs only once the menu has closed and focus is back on the button: a dialog
 * the action opens then starts from the button and gives focus back to it when it closes
 * (otherwise the menu's own focus return would pull focus out of the dialog just opened).
 */
import * as Menu from '@radix-ui/react-dropdown-menu';
import clsx from 'clsx';
import { Ellipsis, type LucideIcon } from 'lucide-react';
import { Fragment, useRef } from 'react';

export interface RowMenuItem {
  label: string;
  icon: LucideIcon;
  onSelect(): void;
  disabled?: boolean;
  /** Destructive (Delete): shown in the danger colour, after a separator. */
  danger?: boolean;
}

export function RowMenu({ items, label = 'More actions', testId }: { items: readonly RowMenuItem[]; label?: string; testId?: string }) {
  const trigger = useRef<HTMLButtonElement>(null);
  const pending = useRef<(() => void) | undefined>(undefined);
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger asChild>
        <button type="button" className="button button-small button-icon" aria-label={label} title={label} ref={trigger} data-testid={testId}>
          <Ellipsis size={16} aria-hidden="true" />
        </button>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          className="menu"
          loop
          align="end"
          sideOffset={4}
          collisionPadding={8}
          onCloseAutoFocus={(e) => {
            const run = pending.current;
            pending.current = undefined;
            if (!run) return;
            e.preventDefault();
            trigger.current?.focus();
            run();
          }}
        >
          {items.map((item, i) => (
            <Fragment key={item.label}>
              {item.danger && i > 0 ? <Menu.Separator className="menu-separator" /> : null}
              <Menu.Item className={clsx('menu-item', item.danger && 'menu-item-danger')} disabled={item.disabled} onSelect={() => (pending.current = item.onSelect)}>
                <item.icon size={14} aria-hidden="true" />
                {item.label}
              </Menu.Item>
            </Fragment>
          ))}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
