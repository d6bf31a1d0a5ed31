import { createValueCodec } from "@codemode/core";
import {
  createRenderer,
  ENCODER_BUILTINS,
  sandboxCanonical,
  sandboxEncoder,
  sandboxErrors,
  sandboxSource,
  sandboxTaggedWriter,
  TAGGED_WRITER_BUILTINS,
} from "@codemode/executor-kit";
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { sandboxReplay } from "./sandbox-replay.ts";
import type { QuickJSInstance } from "./wasm-instances.ts";

/**
 * Built-ins captured when a sandbox is made, before any code runs in it: the host and the parts use
 * these, so a program that replaces one does not change how values and errors cross.
 */
const INTRINSICS = [
  "Promise",
  "Promise.resolve",
  "Promise.reject",
  "Promise.prototype.then",
  "JSON.parse",
  "JSON.stringify",
  "Object.defineProperty",
  "Object.keys",
  "Object.getPrototypeOf",
  "Object.hasOwn",
  "Object.prototype",
  "Array.isArray",
  "Array.prototype",
  "Array.prototype.sort",
  "Reflect.apply",
  "Reflect.construct",
  "Reflect.get",
  "Reflect.has",
  "Proxy",
  "Error",
  "TypeError",
  "Number",
  "String.prototype.slice",
  "Function.prototype.bind",
  ...ENCODER_BUILTINS,
  ...TAGGED_WRITER_BUILTINS,
] as const;
export type Intrinsic = (typeof INTRINSICS)[number];

/** What the replay part checks plain data with, in the order it takes them. */
const PLAIN_DATA_CHECKS = [
  "Object.keys",
  "Object.getPrototypeOf",
  "Object.hasOwn",
  "Array.isArray",
  "Object.prototype",
  "Array.prototype",
] as const satisfies readonly Intrinsic[];

/**
 * Sandbox code compiled on first use (the kit's sandbox parts, its codec and renderer, and the replay
 * of recorded calls, which also gets the helper and the encoder and canonical parts).
 */
const PARTS = {
  // these two take a reader of the captured built-ins (see #builtinReader); the encoder also a host
  // function that gives it the tagged writer, compiled the first time a Date, Map, … is sent
  encoder: { source: sandboxSource(sandboxEncoder), args: [] },
  tagged: { source: sandboxSource(sandboxTaggedWriter), args: [] },
  errors: { source: sandboxSource(sandboxErrors), args: ["Error", "TypeError", "Object.keys"] },
  codec: { source: sandboxSource(createValueCodec), args: [] },
  renderer: { source: sandboxSource(createRenderer), args: [] },
  canonical: {
    source: sandboxSource(sandboxCanonical),
    args: [
      "JSON.stringify",
      "Object.keys",
      "Array.isArray",
      "Reflect.apply",
      "Array.prototype.sort",
    ],
  },
  replay: {
    source: sandboxSource(sandboxReplay),
    args: ["JSON.parse", ...PLAIN_DATA_CHECKS, "Promise"],
  },
} satisfies Record<string, { source: string; args: Intrinsic[] }>;
export type PartName = keyof typeof PARTS;

/** Property attributes for {@link Sandbox.define}; absent means false, as in `Object.defineProperty`. */
export interface Attributes {
  writable?: boolean;
  enumerable?: boolean;
  configurable?: boolean;
}

/**
 * A fresh QuickJS runtime and context on a WebAssembly instance, with the built-ins captured. The
 * globals a pass needs are installed by the host through the API (no source is evaluated for them);
 * the larger pieces of sandbox code (encoder, errors, codec, console renderer, replay) are compiled
 * the first time the pass needs them. It serves exactly one pass; {@link dispose} frees every
 * handle, the context and the runtime.
 */
export class Sandbox {
  readonly instance: QuickJSInstance;
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  /** a rendered console line is cut at this many characters (read when the renderer is compiled) */
  maxLineChars = 100_000;
  readonly #intrinsics: Map<Intrinsic, QuickJSHandle>;
  readonly #parts = new Map<PartName, QuickJSHandle>();
  readonly #members = new Map<string, QuickJSHandle>();
  readonly #descriptors = new Map<string, QuickJSHandle>();
  /** handles that live as long as the sandbox (host functions, namespace objects, …) */
  readonly #owned: QuickJSHandle[] = [];
  #helper: QuickJSHandle | undefined;
  #reader: QuickJSHandle | undefined;

  /** Throws a host error if the instance fails (the caller marks it poisoned). */
  static create(instance: QuickJSInstance, stackBytes: number): Sandbox {
    const runtime = instance.module.newRuntime();
    try {
      runtime.setMaxStackSize(stackBytes);
      return new Sandbox(instance, runtime, runtime.newContext());
    } catch (error) {
      if (runtime.alive) runtime.dispose();
      throw error;
    }
  }

  private constructor(instance: QuickJSInstance, runtime: QuickJSRuntime, context: QuickJSContext) {
    this.instance = instance;
    this.runtime = runtime;
    this.context = context;
    this.#intrinsics = capture(context);
  }

  intrinsic(name: Intrinsic): QuickJSHandle {
    return this.#intrinsics.get(name) as QuickJSHandle;
  }

  /** Keeps a handle until the sandbox is disposed. */
  own<T extends QuickJSHandle>(handle: T): T {
    this.#owned.push(handle);
    return handle;
  }

  /** Calls a sandbox function; a value it throws is thrown as its handle (the caller disposes it). */
  call(fn: QuickJSHandle, self: QuickJSHandle, ...args: QuickJSHandle[]): QuickJSHandle {
    const result = this.context.callFunction(fn, self, ...args);
    if (result.error) throw result.error;
    return result.value;
  }

  /** `new type(...args)` with the captured `Reflect.construct` */
  construct(type: Intrinsic, ...args: QuickJSHandle[]): QuickJSHandle {
    const { context } = this;
    const list = context.newArray();
    try {
      for (const [index, arg] of args.entries()) context.setProp(list, index, arg);
      return this.call(
        this.intrinsic("Reflect.construct"),
        context.undefined,
        this.intrinsic(type),
        list,
      );
    } finally {
      list.dispose();
    }
  }

  /** `Object.defineProperty(target, key, { value, ...attributes })` with the captured built-in */
  define(target: QuickJSHandle, key: string, value: QuickJSHandle, attributes: Attributes): void {
    const { context } = this;
    const flags = `${attributes.writable ? "w" : ""}${attributes.enumerable ? "e" : ""}${attributes.configurable ? "c" : ""}`;
    let descriptor = this.#descriptors.get(flags);
    if (!descriptor) {
      descriptor = context.newObject();
      this.#descriptors.set(flags, descriptor);
      for (const name of ["writable", "enumerable", "configurable"] as const) {
        context.setProp(descriptor, name, attributes[name] ? context.true : context.false);
      }
    }
    context.setProp(descriptor, "value", value);
    const keyHandle = context.newString(key);
    try {
      this.call(
        this.intrinsic("Object.defineProperty"),
        context.undefined,
        target,
        keyHandle,
        descriptor,
      ).dispose();
    } finally {
      keyHandle.dispose();
      context.setProp(descriptor, "value", context.undefined);
    }
  }

  /** `key in target` with the captured built-in */
  has(target: QuickJSHandle, key: QuickJSHandle): boolean {
    const result = this.call(this.intrinsic("Reflect.has"), this.context.undefined, target, key);
    try {
      return this.context.sameValue(result, this.context.true);
    } finally {
      result.dispose();
    }
  }

  /**
   * A value as codec text, encoded in the sandbox: a string with the captured `JSON.stringify`,
   * anything else with the encoder part. What the encoder throws is thrown as its handle.
   */
  encode(value: QuickJSHandle): string {
    const { context } = this;
    const string = context.typeof(value) === "string";
    const encoder = string ? this.intrinsic("JSON.stringify") : this.part("encoder");
    const text = this.call(encoder, context.undefined, value);
    try {
      return context.getString(text);
    } finally {
      text.dispose();
    }
  }

  /** A part of the sandbox code, compiled in this context the first time it is asked for. */
  part(name: PartName): QuickJSHandle {
    let part = this.#parts.get(name);
    if (!part) {
      part = this.#compile(name);
      this.#parts.set(name, part);
    }
    return part;
  }

  /** A function of a part (`part.key`), looked up once. */
  member(name: PartName, key: string): QuickJSHandle {
    const id = `${name}.${key}`;
    let member = this.#members.get(id);
    if (!member) {
      member = this.context.getProp(this.part(name), key);
      this.#members.set(id, member);
    }
    return member;
  }

  /**
   * Frees every handle, the context and the runtime; throws if that fails (QuickJS aborts on a
   * handle still alive, and leaks on some out-of-memory paths), and the instance must then be dropped.
   */
  dispose(): void {
    const handles = [
      ...this.#members.values(),
      ...this.#parts.values(),
      ...this.#descriptors.values(),
      ...this.#owned,
      ...this.#intrinsics.values(),
    ];
    if (this.#helper) handles.push(this.#helper);
    this.#members.clear();
    this.#parts.clear();
    this.#descriptors.clear();
    this.#owned.length = 0;
    this.#intrinsics.clear();
    this.#helper = undefined;
    this.#reader = undefined;
    for (const handle of handles) if (handle.alive) handle.dispose();
    if (this.context.alive) this.context.dispose();
    if (this.runtime.alive) this.runtime.dispose();
  }

  #compile(name: PartName): QuickJSHandle {
    const { context } = this;
    const { source, args } = PARTS[name];
    const evaluated = context.evalCode(source, `codemode-${name}.js`, { type: "global" });
    if (evaluated.error) throw evaluated.error;
    const factory = evaluated.value;
    const temporary: QuickJSHandle[] = [];
    try {
      let handles: QuickJSHandle[];
      if (name === "renderer") {
        const max = context.newNumber(this.maxLineChars);
        temporary.push(max);
        handles = [max];
      } else if (name === "codec") {
        handles = [];
      } else if (name === "encoder") {
        const tagged = this.own(
          this.context.newFunction("tagged", () => this.part("tagged").dup()),
        );
        handles = [this.#builtinReader(), tagged];
      } else if (name === "tagged") {
        handles = [this.#builtinReader()];
      } else if (name === "canonical") {
        handles = args.map((arg) => this.intrinsic(arg));
      } else if (name === "replay") {
        const parts = [this.part("encoder"), this.part("canonical")];
        handles = [this.#helperFunction(), ...parts, ...args.map((arg) => this.intrinsic(arg))];
      } else {
        handles = [this.#helperFunction(), ...args.map((arg) => this.intrinsic(arg))];
      }
      return this.call(factory, context.undefined, ...handles);
    } finally {
      factory.dispose();
      for (const handle of temporary) handle.dispose();
    }
  }

  /**
   * What the encoder and the tagged writer ask for their built-ins with (`BuiltinReader`): the
   * captured `Reflect.get`, bound to an object without a prototype that holds the built-ins captured
   * when the sandbox was made, before any code ran. Made once, without compiling anything.
   */
  #builtinReader(): QuickJSHandle {
    if (!this.#reader) {
      const { context } = this;
      const table = context.newObject(context.null);
      try {
        for (const path of [...ENCODER_BUILTINS, ...TAGGED_WRITER_BUILTINS]) {
          context.setProp(table, path, this.intrinsic(path));
        }
        this.#reader = this.own(
          this.call(
            this.intrinsic("Function.prototype.bind"),
            this.intrinsic("Reflect.get"),
            context.undefined,
            table,
          ),
        );
      } finally {
        table.dispose();
      }
    }
    return this.#reader;
  }

  /** The host function the parts ask for the codec and the renderer with. */
  #helperFunction(): QuickJSHandle {
    if (!this.#helper) {
      this.#helper = this.context.newFunction("helper", (name) => {
        const wanted =
          name && this.context.typeof(name) === "string" ? this.context.getString(name) : "";
        return this.part(wanted === "codec" ? "codec" : "renderer").dup();
      });
    }
    return this.#helper;
  }
}

/** The built-ins, read before any code ran; intermediate objects (`Promise.prototype`) are freed. */
function capture(context: QuickJSContext): Map<Intrinsic, QuickJSHandle> {
  const found = new Map<string, QuickJSHandle>();
  const read = (path: string): QuickJSHandle => {
    let handle = found.get(path);
    if (!handle) {
      const dot = path.lastIndexOf(".");
      const parent = dot < 0 ? context.global : read(path.slice(0, dot));
      handle = context.getProp(parent, path.slice(dot + 1));
      found.set(path, handle);
    }
    return handle;
  };
  const intrinsics = new Map<Intrinsic, QuickJSHandle>();
  for (const name of INTRINSICS) intrinsics.set(name, read(name));
  for (const [path, handle] of found) {
    if (!intrinsics.has(path as Intrinsic)) handle.dispose();
  }
  return intrinsics;
}
