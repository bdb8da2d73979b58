/** A row's secondary actions sit in its "More actions" menu (RowMenu): open it, then pick the item. */
import type { Locator } from '@playwright/test';

export async function rowAction(row: Locator, action: string): Promise<void> {
  await row.getByRole('button', { name: 'More actions' }).click();
  await row.page().getByRole('menu').getByRole('menuitem', { name: action }).click();
}
