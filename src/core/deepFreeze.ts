/**
 * Freezes `value` and everything reachable from it, in place, and returns it. An object already
 * frozen is taken as frozen all the way down and not walked again: the conversation's stored
 * messages and the composer's copies are frozen whole, so a second pass over them costs nothing.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as Record<string, unknown>)) deepFreeze(inner);
  }
  return value;
}
