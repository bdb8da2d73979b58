/**
 * Browser mode in Chromium: the launch token leaves the address bar and is kept only in an
 * HttpOnly cookie, and the event socket connects to the page's own origin under
 * `connect-src 'self'` (CSP Level 3 lets 'self' cover ws:// to the same host and port).
 */
import { expect, test } from './support/fixtures';

test('the token becomes an HttpOnly cookie; requests and the event socket work under connect-src \'self\'', async ({ page, nb }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to connect/i.test(m.text())) problems.push(m.text());
  });
  const socket = page.waitForEvent('websocket', { timeout: 15_000 });
  await page.goto(nb.host.url);
  await expect(page).toHaveURL(`${nb.host.origin}/`);
  await expect(page.getByRole('button', { name: 'Open demo workspace' })).toBeVisible();

  // The token is nowhere the page's scripts can read it.
  const exposed = await page.evaluate(() => ({ cookie: document.cookie, href: location.href, session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage) }));
  for (const where of Object.values(exposed)) expect(where).not.toContain(nb.host.token);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === `nb_token_${nb.host.port}`)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

  // The event socket (opened with the cookie, no token in its URL) delivers a pushed event.
  const ws = await socket;
  expect(ws.url()).toBe(`ws://127.0.0.1:${nb.host.port}/api/events`);
  const frame = ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).includes('e2e-csp-check'), timeout: 15_000 });
  nb.harness.app.events.emit('notice', { level: 'info', message: 'e2e-csp-check' });
  await frame;
  expect(problems).toEqual([]);
});
