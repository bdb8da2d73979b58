/** The RabbitMQ form's values, their checks before the round trip, and the publication.update request. */
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { AmqpUrlField, amqpEndpointKey, parseAmqpUrl, type PublicationUpdate, type PublicationView } from '../../../shared/model/settings';

/** The same rules main applies (electron/app/publication-settings.ts), checked as the operator types. */
export const PublicationForm = z
  .object({
    amqpUrl: AmqpUrlField,
    password: z.string().max(1024, 'The password is longer than 1,024 characters.'),
    forgetPassword: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (!v.password) return;
    if (!v.amqpUrl) {
      ctx.addIssue({ code: 'custom', path: ['amqpUrl'], message: 'Enter the address this password is for.' });
      return;
    }
    const parsed = parseAmqpUrl(v.amqpUrl);
    if (!parsed.ok) return;
    if (parsed.address.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'The address already holds a password: type it in one place.' });
    else if (!parsed.address.username) ctx.addIssue({ code: 'custom', path: ['amqpUrl'], message: 'Write the user name in the address for this password, e.g. amqp://user@host:5672/.' });
  });
export type PublicationFormValues = z.input<typeof PublicationForm>;
export type PublicationFormOutput = z.output<typeof PublicationForm>;
export const publicationResolver = zodResolver(PublicationForm) as Resolver<PublicationFormValues, unknown, PublicationFormOutput>;

export const publicationDefaults = (view: PublicationView | undefined): PublicationFormValues => ({ amqpUrl: view?.amqp.url ?? '', password: '', forgetPassword: false });

/** An empty password box keeps what is stored, so it is not sent at all. */
export function toPublicationRequest(v: PublicationFormOutput): PublicationUpdate {
  return { amqpUrl: v.amqpUrl, ...(v.password ? { password: v.password } : {}), ...(v.forgetPassword ? { forgetPassword: true } : {}) };
}

/**
 * True when saving this address drops the stored password: it was entered for another scheme,
 * host, port or virtual host (or the address is removed), and no password is typed.
 */
export function dropsPassword(view: PublicationView | undefined, amqpUrl: string, password: string): boolean {
  if (!view?.amqp.hasPassword || !view.amqp.url || password) return false;
  if (!amqpUrl.trim()) return true;
  const before = parseAmqpUrl(view.amqp.url);
  const after = parseAmqpUrl(amqpUrl);
  if (!before.ok || !after.ok) return false;
  return amqpEndpointKey(before.address) !== amqpEndpointKey(after.address) || !after.address.username;
}
