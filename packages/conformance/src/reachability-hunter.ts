// The program of the reachability group, written as a function so it is type-checked and linted;
// `hunterProgram` turns it into the code a sandbox runs. It rewrites the built-ins a harness may use
// (getters on the prototypes for `names`, `Symbol.toPrimitive`, `JSON`, `Object.keys`, `then`…),
// keeps every object and function it is handed, walks everything reachable from its globals, and
// calls every function it found with forged arguments (among them a forged call of the prelude's
// step channel `stepRecord`). It runs in the sandbox, where `ns` and `codemode` are globals.
import { sandboxSource } from "@codemode/core/internal";

// biome-ignore lint/suspicious/noExplicitAny: a hostile program reaches into anything it finds
type Loose = any;

async function hunter(names: readonly string[], stepRecord: string) {
  const { ns, codemode } = globalThis as Loose;
  const reflectApply = Reflect.apply;
  const handed: unknown[] = [];
  let noting = false;
  const note = (value: unknown) => {
    if (noting) return;
    noting = true;
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      if (!handed.includes(value)) handed[handed.length] = value;
    }
    noting = false;
  };
  const prototypes = [
    Object.prototype,
    Array.prototype,
    Function.prototype,
    Promise.prototype,
    Error.prototype,
  ];
  for (const proto of prototypes) {
    for (const name of names) {
      const original = Object.getOwnPropertyDescriptor(proto, name);
      try {
        Object.defineProperty(proto, name, {
          configurable: true,
          get() {
            note(this);
            if (!original) return undefined;
            return "value" in original
              ? original.value
              : original.get && reflectApply(original.get, this, []);
          },
          set(value) {
            note(this);
            note(value);
            Object.defineProperty(this, name, {
              value,
              writable: true,
              configurable: true,
              enumerable: true,
            });
          },
        });
      } catch {}
    }
  }
  try {
    Object.defineProperty(Object.prototype, Symbol.toPrimitive, {
      configurable: true,
      get() {
        note(this);
        return undefined;
      },
    });
  } catch {}
  const wrapped: [Loose, string][] = [
    [JSON, "stringify"],
    [JSON, "parse"],
    [Object, "keys"],
    [Object, "defineProperty"],
    [Array, "isArray"],
    [Array.prototype, "push"],
    [Array.prototype, "map"],
    [Promise, "resolve"],
    [Promise, "all"],
  ];
  for (const [owner, key] of wrapped) {
    const fn = owner[key];
    try {
      owner[key] = function (this: unknown, ...args: unknown[]) {
        note(this);
        for (const arg of args) note(arg);
        return reflectApply(fn, this, args);
      };
    } catch {}
  }
  const legit = await ns.legit({ on: "purpose" });
  // everything reachable from the globals, and from what the harness handed over
  const queue: Loose[] = [globalThis, ...handed];
  const seen: unknown[] = [];
  const functions: [unknown, PropertyKey, Loose][] = [];
  const found: unknown[] = [];
  const sdk: PropertyKey[] = ["step", "run", "search", "describe"];
  while (queue.length > 0 && seen.length < 5000) {
    const value = queue.shift();
    if (seen.includes(value)) continue;
    seen.push(value);
    let keys: PropertyKey[] = [];
    try {
      keys = Reflect.ownKeys(value);
    } catch {}
    try {
      const proto = Object.getPrototypeOf(value);
      if (proto) queue.push(proto);
    } catch {}
    for (const key of keys) {
      let item: unknown;
      try {
        item = value[key];
      } catch {
        continue;
      }
      if (value === codemode && sdk.includes(key)) continue;
      // the console is the program's own to write to
      if (value === globalThis && key === "console") continue;
      if (typeof item === "function") {
        if (!found.includes(item)) {
          found.push(item);
          functions.push([value, key, item]);
        }
        queue.push(item);
      } else if (typeof item === "object" && item !== null) queue.push(item);
    }
  }
  for (const value of handed) {
    if (typeof value === "function" && !found.includes(value)) {
      functions.push([undefined, "handed", value]);
    }
  }
  const forged = {
    seq: 0,
    token: "0".repeat(32),
    value: "forged",
    name: "x",
    code: "async () => 1",
  };
  const argumentLists: unknown[][] = [
    [forged],
    ["codemode", stepRecord, JSON.stringify(forged), [["injected"], 0], 5],
    [[["injected"], 0]],
  ];
  let called = 0;
  for (const [self, , fn] of functions) {
    if (fn === ns.legit) continue;
    for (const args of argumentLists) {
      try {
        const out = reflectApply(fn, self, args);
        called++;
        if (out && typeof out === "object") {
          try {
            Promise.resolve(out).catch(() => {});
          } catch {}
        }
      } catch {}
    }
  }
  return { legit, called };
}

/** The reachability program as the code a sandbox runs. */
export function hunterProgram(names: readonly string[], stepRecord: string): string {
  return `async () => (${sandboxSource(hunter)})(${JSON.stringify(names)}, ${JSON.stringify(stepRecord)})`;
}
