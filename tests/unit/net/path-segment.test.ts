import { describe, expect, it } from 'vitest';
import { pathSegment } from '../../../electron/net/path-segment';
import { deployPath, devicePath, taskPath } from '../../../electron/inventory/node-api';
import { AppError } from '../../../shared/model/errors';

describe('path segments built from names', () => {
  it('encodes ordinary names, slashes and all', () => {
    expect(devicePath('edge-1')).toBe('/mgmt/sdwan/workflow/devices/device/edge-1');
    expect(taskPath('a/b?c#d')).toBe('/mgmt/tasks/task/a%2Fb%3Fc%23d');
    expect(pathSegment('😀', 'name')).toBe('%F0%9F%98%80');
  });

  it.each(['.', '..'])('refuses %j, which URL normalisation would turn into another resource', (name) => {
    // new URL('/devices/device/..', base) is the device list itself.
    expect(new URL(`https://node${`/mgmt/sdwan/workflow/devices/device/${encodeURIComponent(name)}`}`).pathname).not.toContain('/device/.');
    expect(() => devicePath(name)).toThrow(AppError);
    expect(() => deployPath(name)).toThrow(/cannot be empty, "\." or "\.\."/);
  });

  it('refuses a lone surrogate as a validation error, not a URIError', () => {
    expect(() => encodeURIComponent('\ud800x')).toThrow(URIError);
    let thrown: unknown;
    try {
      taskPath('\ud800x');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('request.invalid');
    expect((thrown as AppError).message).not.toContain('\ud800');
  });
});
