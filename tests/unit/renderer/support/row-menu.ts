/** A row's secondary actions sit in its "More actions" menu (RowMenu): open it, then pick the item. */
import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

export async function rowAction(user: UserEvent, row: HTMLElement, action: string): Promise<void> {
  await user.click(within(row).getByRole('button', { name: 'More actions' }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
}
