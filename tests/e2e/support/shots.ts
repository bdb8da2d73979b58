/**
 * What the page specs share around their screenshots: toasts out of the way, and each step shot in
 * light and in dark under one numbered name (`<prefix>-<scheme>-<step>-<name>`).
 */
import type { Page } from '@playwright/test';
import { expect, type Northbound } from './fixtures';

/**
 * The toasts would cover part of the screenshots. Always the first close button, a bounded click at
 * a time: a list taken once goes stale as toasts close (by click or on their own), and a click on
 * its second entry once one toast was left waited for a button that no longer existed until the
 * test's whole budget was gone (CI, stop 27).
 */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close toast' });
  await expect(async () => {
    if ((await close.count()) > 0) await close.first().click({ timeout: 2_000 });
    await expect(close).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

export interface ShooterOptions {
  /** Wait for the page's finite CSS animations (row highlights) to end first; not for pages with a spinner. */
  settle?: boolean;
  /** Rest the pointer on the sidebar's empty foot, so no row or tile shows its hover state (default true). */
  restPointer?: boolean;
}

/** One step, shot in light and in dark. */
export function shooter(page: Page, nb: Northbound, prefix: string, options: ShooterOptions = {}) {
  let n = 0;
  return async (name: string) => {
    const step = String(++n).padStart(2, '0');
    if (options.settle) await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    if (options.restPointer ?? true) await page.mouse.move(10, 890);
    await shotInBothSchemes(page, nb, (scheme) => `${prefix}-${scheme}-${step}-${name}`);
  };
}

/**
 * The window as it is now, in light and then in dark (it follows the system's scheme), named
 * `name(scheme)`; the window is left in light. The schemes differ in colours only.
 */
export async function shotInBothSchemes(page: Page, nb: Northbound, name: (scheme: 'light' | 'dark') => string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    // Buttons fade their colours (components.css): a picture right after the switch caught them half way.
    await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined))));
    await nb.shot(page, name(scheme));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
