/**
 * An object that forwards every property to whatever `current()` answers at the time of the call
 * (C-84): the handlers, the exports and the Overview hold one, and a console that joins or leaves
 * a team changes what answers behind it without rebuilding them. A method is bound to the object
 * it was read from; `current()` throwing (the team's database not joined yet) fails that call only.
 */
export function delegate<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      const target = current();
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
    has(_target, prop) {
      return Reflect.has(current(), prop);
    },
  });
}
