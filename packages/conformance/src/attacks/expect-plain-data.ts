// The check that a value the host received from the sandbox is plain data of the host's realm.
import { expect } from "vitest";

const DATA_PROTOTYPES: readonly unknown[] = [
  Object.prototype,
  Array.prototype,
  Date.prototype,
  Map.prototype,
  Set.prototype,
  Uint8Array.prototype,
  null,
];

/** A value the host received is data: the host's own prototypes, and no getter or setter anywhere. */
export function expectPlainData(value: unknown, path = "value", seen = new Set<unknown>()): void {
  if (typeof value === "function") throw new Error(`${path} is a function`);
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  expect(
    DATA_PROTOTYPES.includes(Object.getPrototypeOf(value)),
    `${path} has a prototype of the host`,
  ).toBe(true);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    expect(descriptor && "value" in descriptor, `${path}.${String(key)} is a data property`).toBe(
      true,
    );
    expectPlainData(descriptor?.value, `${path}.${String(key)}`, seen);
  }
  if (value instanceof Map) {
    for (const [key, entry] of value) {
      expectPlainData(key, `${path} key`, seen);
      expectPlainData(entry, `${path} entry`, seen);
    }
  } else if (value instanceof Set) {
    for (const member of value) expectPlainData(member, `${path} member`, seen);
  }
}
