/**
 * Issue 20.1 for the RabbitMQ password: a publication that read the old address while a save
 * stored a new password for a new address must not pair the two. The vault's read is held
 * until the save has finished, as a slow disk would hold it.
 */
import { describe, expect, it } from 'vitest';
import { PublicationSettings } from '../../../electron/app/publication-settings';
import { createMemoryLogger } from '../../../electron/log';
import { memorySettings, memoryVault } from '../../support/memory-ports';

describe('the RabbitMQ password stays with its address', () => {
  it('a connect that read the old address gets no password typed for the new one', async () => {
    const settings = memorySettings();
    const vault = memoryVault();
    let hold: Promise<void> | undefined;
    const get = vault.get;
    // The next read after `hold` is set waits for it (one read only).
    vault.get = async (k) => {
      const gate = hold;
      hold = undefined;
      await gate;
      return get(k);
    };
    const pub = new PublicationSettings({ settings, vault, logger: createMemoryLogger(), env: {} });
    await pub.update({ amqpUrl: 'amqp://scores@rabbit.example:5672/', password: 'Old-Password-1' });
    expect(await pub.connectUrl()).toBe('amqp://scores:Old-Password-1@rabbit.example:5672/');

    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    const connecting = pub.connectUrl(); // reads the stored address now, the vault later
    await pub.update({ amqpUrl: 'amqps://scores@other.example:5671/', password: 'New-Password-2' });
    release();
    const url = await connecting;
    expect(url).not.toContain('New-Password-2');
    expect(url).toBe('amqp://scores@rabbit.example:5672/');
    expect(await pub.connectUrl()).toBe('amqps://scores:New-Password-2@other.example:5671/');
  });
});
