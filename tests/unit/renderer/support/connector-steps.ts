/** Steps the Connectors page tests share: open the page, start a connector in the form. */
import { screen, within } from '@testing-library/react';
import type { MainBridge } from './main-bridge';
import { renderApp } from './render';

export async function openConnectors(main: MainBridge) {
  const r = renderApp(main);
  await r.user.click(await screen.findByRole('link', { name: /^Connectors/ }));
  return r;
}

/** Opens "Add connector" and picks the vendor (its radio's label); returns the form. */
export async function startConnectorForm(user: ReturnType<typeof renderApp>['user'], vendor: RegExp): Promise<HTMLElement> {
  await user.click(await screen.findByRole('button', { name: 'Add connector' }));
  const form = screen.getByTestId('connector-form');
  await user.click(within(form).getByLabelText(vendor));
  return form;
}

/** Opens "Add connector", picks Defender and fills tenant, client and secret; returns the form. */
export async function startDefenderForm(user: ReturnType<typeof renderApp>['user'], secret: string): Promise<HTMLElement> {
  const form = await startConnectorForm(user, /Microsoft Defender/);
  await user.type(within(form).getByLabelText('Tenant ID'), 'contoso.onmicrosoft.com');
  await user.type(within(form).getByLabelText('Client ID'), 'fe9643fa-ccd2-4235-881c-49a705ef7e01');
  await user.type(within(form).getByLabelText('Client secret'), secret);
  return form;
}
