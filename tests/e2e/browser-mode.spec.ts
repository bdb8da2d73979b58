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
  // No token left in the address: only the page's own (hash) address, where the window starts.
  await expect(page).toHaveURL(`${nb.host.origin}/#/connections`);
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

test('a body over the channel\'s limit comes back to Chromium as a 413 with the error the UI shows', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  await expect(page.getByRole('button', { name: 'Open demo workspace' })).toBeVisible();
  const answer = await page.evaluate(async () => {
    const res = await fetch('/api/invoke/settings.update', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ theme: 'x'.repeat(3 * 1024 * 1024) }) });
    return { status: res.status, body: (await res.json()) as unknown };
  });
  expect(answer).toEqual({
    status: 413,
    body: { ok: false, error: { code: 'request.too_large', message: 'The request is larger than the 1 MiB this action accepts.', hint: expect.any(String), details: { maxBytes: 1024 * 1024 } } },
  });
});
