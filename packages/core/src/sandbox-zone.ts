// The sandbox's time zone and default locale, the same on every machine that runs a pass of a run:
// the host's zone and language differ between them (a process's TZ, a device's zone and language;
// workerd is in UTC), so a program that stamps a call with `toLocaleString()` or `getHours()` would
// build another call on replay. Executor-agnostic: source the prelude runs in the sandbox before the
// clock of sandbox-determinism.ts, which wraps the `Date` made here (see `determinismPrelude`).

type Scope = Record<string, unknown> & { Date?: DateConstructor };

/**
 * Runs INSIDE the sandbox (self-contained: no imports, nothing from outside its body; the built-ins
 * it calls are taken when it runs, so a program that replaces them later does not change it). Makes
 * the local time zone UTC and the default locale "en-US": the local-time `Date` methods read and set
 * the UTC fields, `getTimezoneOffset()` is 0, `toString()` and its parts print as an engine in UTC
 * does, `new Date(y, m, ...)`, `Date()` and a date-time string without an offset (`new Date(s)`,
 * `Date.parse`) read in UTC, `Temporal.Now` is in the zone "UTC", and `toLocale*String`, Intl's
 * formats, `localeCompare` and the other formats for a locale take the zone "UTC" and the locale
 * "en-US" where the program names none; a zone or locale it names is honoured. Without Intl
 * (QuickJS), `toLocale*String` print as "en-US" does, in UTC.
 */
export function installZone(scope: Scope): void {
  const RealDate = scope.Date;
  const construct = Reflect.construct;
  const define = Object.defineProperty;
  const method = (value: unknown) => ({ value, writable: true, configurable: true });
  const apply = Reflect.apply;
  const create = Object.create;
  const toObject = Object;
  const toText = String;
  const isArray = Array.isArray;
  const trunc = Math.trunc;
  const nan = Number.isNaN;
  const like = <T extends object>(wrapper: T, original: unknown, name: string): T => {
    define(wrapper, "name", { value: name, configurable: true });
    define(wrapper, "length", {
      value: (original as { length: number }).length,
      configurable: true,
    });
    return wrapper;
  };
  /** the locales a program gave, or "en-US" where it gave none */
  const localesOf = (locales: unknown) =>
    locales === undefined || (isArray(locales) && locales.length === 0) ? "en-US" : locales;
  /** the options a program gave, read as they are, with `timeZone` "UTC" where they name none */
  const zonedOptions = (options: unknown) =>
    options === undefined
      ? { timeZone: "UTC" }
      : options === null
        ? options
        : create(toObject(options), {
            timeZone: {
              get: () => {
                const zone = (options as { timeZone?: unknown }).timeZone;
                return zone === undefined ? "UTC" : zone;
              },
            },
          });
  const intl = scope.Intl as Record<string, unknown> | undefined;
  const hasIntl = typeof intl === "object" && intl !== null;
  if (typeof RealDate === "function") {
    const proto = RealDate.prototype as unknown as Record<string, (...args: never[]) => unknown>;
    const realParse = RealDate.parse;
    const realUTC = RealDate.UTC;
    const getTime = proto.getTime as () => number;
    const setUTCFullYear = proto.setUTCFullYear as (...args: number[]) => number;
    const setUTCHours = proto.setUTCHours as (...args: number[]) => number;
    const utc = (name: string) => proto[`getUTC${name}`] as () => number;
    const [utcYear, utcMonth, utcDate, utcDay, utcHours, utcMinutes, utcSeconds] = [
      utc("FullYear"),
      utc("Month"),
      utc("Date"),
      utc("Day"),
      utc("Hours"),
      utc("Minutes"),
      utc("Seconds"),
    ];
    // the engine's own readers of the host's zone, for a string it read there and nothing else does
    const local = [
      proto.getFullYear,
      proto.getMonth,
      proto.getDate,
      proto.getHours,
      proto.getMinutes,
      proto.getSeconds,
      proto.getMilliseconds,
    ] as Array<() => number>;
    const read = (date: unknown, getter: () => number) => apply(getter, date, []) as number;
    // the fields in the local zone are the UTC ones
    for (const name of [
      "FullYear",
      "Month",
      "Date",
      "Day",
      "Hours",
      "Minutes",
      "Seconds",
      "Milliseconds",
    ]) {
      define(proto, `get${name}`, method(proto[`getUTC${name}`]));
      if (name !== "Day") define(proto, `set${name}`, method(proto[`setUTC${name}`]));
    }
    define(
      proto,
      "getTimezoneOffset",
      method(
        like(
          function (this: unknown) {
            const t = read(this, getTime);
            return nan(t) ? t : 0;
          },
          proto.getTimezoneOffset,
          "getTimezoneOffset",
        ),
      ),
    );
    if (typeof proto.getYear === "function" && typeof proto.setYear === "function") {
      define(
        proto,
        "getYear",
        method(
          like(
            function (this: unknown) {
              return read(this, utcYear) - 1900;
            },
            proto.getYear,
            "getYear",
          ),
        ),
      );
      define(
        proto,
        "setYear",
        method(
          like(
            function (this: unknown, year: unknown) {
              const y = +(year as number);
              const whole = trunc(y);
              return apply(setUTCFullYear, this, [whole >= 0 && whole <= 99 ? 1900 + whole : y]);
            },
            proto.setYear,
            "setYear",
          ),
        ),
      );
    }
    // toString and its parts, as an engine in UTC prints them
    const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS = [
      "Jan",
      "Feb",
      "Mar",
      "Apr",
      "May",
      "Jun",
      "Jul",
      "Aug",
      "Sep",
      "Oct",
      "Nov",
      "Dec",
    ];
    const two = (n: number) => (n < 10 ? "0" : "") + n;
    const four = (n: number) => (n < 10 ? "000" : n < 100 ? "00" : n < 1000 ? "0" : "") + n;
    const dayText = (date: unknown) => {
      const year = read(date, utcYear);
      return `${DAYS[read(date, utcDay)]} ${MONTHS[read(date, utcMonth)]} ${two(read(date, utcDate))} ${year < 0 ? `-${four(-year)}` : four(year)}`;
    };
    const timeText = (date: unknown) =>
      `${two(read(date, utcHours))}:${two(read(date, utcMinutes))}:${two(read(date, utcSeconds))} GMT+0000 (Coordinated Universal Time)`;
    const printer = (name: string, print: (date: unknown) => string) =>
      like(
        function (this: unknown) {
          const t = read(this, getTime);
          return nan(t) ? "Invalid Date" : print(this);
        },
        proto[name],
        name,
      );
    const dateText = printer("toString", (date) => `${dayText(date)} ${timeText(date)}`);
    define(proto, "toString", method(dateText));
    define(proto, "toDateString", method(printer("toDateString", dayText)));
    define(proto, "toTimeString", method(printer("toTimeString", timeText)));
    // toLocaleString and its parts: Intl's formats for the locale (default "en-US") in the zone
    // (default UTC); without Intl, as "en-US" prints them
    const DateTimeFormat = hasIntl ? intl.DateTimeFormat : undefined;
    const formatGetter =
      typeof DateTimeFormat === "function"
        ? Object.getOwnPropertyDescriptor(DateTimeFormat.prototype, "format")?.get
        : undefined;
    const formats: Record<string, object> = create(null);
    const NUMERIC = "numeric";
    for (const [name, date, time] of [
      ["toLocaleString", true, true],
      ["toLocaleDateString", true, false],
      ["toLocaleTimeString", false, true],
    ] as const) {
      const original = proto[name] as (...args: unknown[]) => string;
      const print = (value: unknown) => {
        const hours = read(value, utcHours);
        const day = `${read(value, utcMonth) + 1}/${read(value, utcDate)}/${read(value, utcYear)}`;
        const clock = `${hours % 12 || 12}:${two(read(value, utcMinutes))}:${two(read(value, utcSeconds))} ${hours < 12 ? "AM" : "PM"}`;
        return date && time ? `${day}, ${clock}` : date ? day : clock;
      };
      const printed = printer(name, print);
      const formatted = function (this: unknown, locales?: unknown, options?: unknown) {
        if (!formatGetter) return apply(printed, this, []);
        if (options === undefined && (locales === undefined || typeof locales === "string")) {
          // the common call, with a format made once: a format made per call costs ~0.3 ms
          const t = read(this, getTime);
          if (nan(t)) return "Invalid Date";
          const locale = locales === undefined ? "en-US" : locales;
          const key = `${name} ${locale}`;
          let format = formats[key] as object;
          if (format === undefined) {
            // the fields toLocaleString and its parts show when the options name none
            const numeric = date ? { year: NUMERIC, month: NUMERIC, day: NUMERIC } : {};
            const fields = time
              ? { ...numeric, hour: NUMERIC, minute: NUMERIC, second: NUMERIC }
              : numeric;
            format = construct(DateTimeFormat as typeof Intl.DateTimeFormat, [
              locale,
              { ...fields, timeZone: "UTC" },
            ]);
            formats[key] = format;
          }
          return apply(apply(formatGetter, format, []) as (t: number) => string, undefined, [t]);
        }
        return apply(original, this, [localesOf(locales), zonedOptions(options)]);
      };
      define(proto, name, method(like(formatted, original, name)));
    }
    // a date-time string without an offset, and a date made of components, read in UTC
    // The zone words the engines' date parsers know (GMT, UT, UTC, Z and the zones of the US), and
    // the ASCII letters lowercased: tables of their own, so the scan below calls no method at all
    const zoneWords: Record<string, true> = create(null);
    for (const word of [
      "gmt",
      "ut",
      "utc",
      "z",
      "est",
      "edt",
      "cst",
      "cdt",
      "mst",
      "mdt",
      "pst",
      "pdt",
    ]) {
      zoneWords[word] = true;
    }
    const lower: Record<string, string> = create(null);
    for (let code = 97; code <= 122; code++) {
      const letter = toText.fromCharCode(code);
      lower[letter] = letter;
      lower[toText.fromCharCode(code - 32)] = letter;
    }
    /**
     * Whether `text` names its zone as the engine's parser reads it (V8's): a zone word after the
     * first number ("10:00 EST", "10:00Z", not "GMT Dec 7 2026"), or a sign after a time ("10:00
     * -0700", "T10:00:00.000+05:30", "10:00:00 2026 -0700"), but not a "-" right after a number of
     * the date ("10:00 2026-12-07"); what is in parentheses is a comment. -1 where it does, else
     * the number of parentheses it leaves open. One pass over the text, constant work a character.
     */
    const zoneIn = (text: string): number => {
      let depth = 0;
      let number = false;
      let time = false;
      let digit = false;
      // the number being read is a part of the time (after ":", or after "." in a time)
      let timePart = false;
      let previous = " ";
      let word = "";
      const length = text.length;
      for (let index = 0; index <= length; index++) {
        // a separator past the end ends the last word
        const char = index < length ? (text[index] as string) : " ";
        if (depth > 0) {
          if (char === "(") depth++;
          else if (char === ")") depth--;
          // a comment separates what is on its sides
          previous = " ";
          continue;
        }
        const letter = lower[char];
        if (letter !== undefined) {
          // a word longer than three letters is no zone: four are kept to tell
          if (word.length < 4) word += letter;
          digit = false;
          previous = char;
          continue;
        }
        if (word !== "") {
          if (number && zoneWords[word] === true) return -1;
          word = "";
        }
        if (char >= "0" && char <= "9") {
          if (!digit) timePart = previous === ":" || (previous === "." && time);
          number = true;
          digit = true;
          previous = char;
          continue;
        }
        if (char === ":" && digit) time = true;
        // a sign after a time is an offset; a "-" right after a number of the date separates it
        else if (char === "+" && time) return -1;
        else if (char === "-" && time && (!digit || timePart)) return -1;
        else if (char === "(") depth = 1;
        digit = false;
        previous = char;
      }
      return depth;
    };
    // the parse of a date-time string without an offset: the engine reads it in the host's zone
    const parseUTC = (text: string) => {
      const open = zoneIn(text);
      // a zone or an offset in it: the engine reads it as it is, in no zone of the host's
      if (open < 0) return realParse(text);
      // read with the zone UTC added, after a comment it leaves open is closed (else the comment
      // would take in the zone)
      let closed = text;
      for (let index = 0; index < open; index++) closed += ")";
      let inUTC = realParse(`${closed} GMT`);
      if (nan(inUTC)) inUTC = realParse(`${closed}Z`);
      if (!nan(inUTC)) return inUTC;
      const inHostZone = realParse(text);
      if (nan(inHostZone)) return inHostZone;
      // a form the engine reads with no zone added: the fields it read, in UTC
      const date = new RealDate(inHostZone);
      const at = (index: number) => read(date, local[index] as () => number);
      const inUTCFields = new RealDate(0);
      apply(setUTCFullYear, inUTCFields, [at(0), at(1), at(2)]);
      return apply(setUTCHours, inUTCFields, [at(3), at(4), at(5), at(6)]) as number;
    };
    /** `new Date(...args)`'s arguments for the engine's own Date: components and strings read in UTC */
    const dateArgs = (args: unknown[]) =>
      args.length === 1 && typeof args[0] === "string"
        ? [parseUTC(args[0])]
        : args.length > 1
          ? [apply(realUTC, undefined, args)]
          : args;
    // the scope's Date: the engine's, with strings and components read in UTC, and Date() printed
    // in UTC; its prototype is the engine's
    const ZonedDate = function (this: unknown, ...args: unknown[]) {
      if (new.target === undefined) return apply(dateText, new RealDate(), []);
      return construct(RealDate, dateArgs(args), new.target);
    } as unknown as DateConstructor;
    define(ZonedDate, "prototype", { value: RealDate.prototype });
    define(ZonedDate, "now", method(RealDate.now));
    define(
      ZonedDate,
      "parse",
      method(like((text: unknown) => parseUTC(toText(text)), realParse, "parse")),
    );
    define(ZonedDate, "UTC", method(realUTC));
    define(ZonedDate, "length", { value: 7 });
    define(ZonedDate, "name", { value: "Date" });
    define(proto, "constructor", method(ZonedDate));
    define(scope, "Date", method(ZonedDate));
  }
  // the formats of Intl, and the methods that format or compare for a locale
  if (hasIntl) {
    for (const name of [
      "DateTimeFormat",
      "NumberFormat",
      "Collator",
      "PluralRules",
      "RelativeTimeFormat",
      "ListFormat",
      "DisplayNames",
      "Segmenter",
      "DurationFormat",
    ]) {
      const Real = intl[name] as (new (...args: unknown[]) => object) & Record<string, unknown>;
      if (typeof Real !== "function") continue;
      const zoned = name === "DateTimeFormat";
      const Pinned = like(
        function (this: unknown, locales?: unknown, options?: unknown) {
          const args = [localesOf(locales), zoned ? zonedOptions(options) : options];
          return new.target === undefined
            ? apply(Real as unknown as () => object, this, args)
            : construct(Real, args, new.target);
        },
        Real,
        name,
      );
      try {
        define(Pinned, "prototype", { value: Real.prototype });
        define(Pinned, "supportedLocalesOf", method(Real.supportedLocalesOf));
        define(Real.prototype, "constructor", method(Pinned));
        define(intl, name, method(Pinned));
      } catch {}
    }
    const pin = (target: unknown, name: string, at: 0 | 1) => {
      const original = (target as Record<string, unknown> | undefined)?.[name];
      if (typeof original !== "function") return;
      const pinned = function (this: unknown, a?: unknown, b?: unknown, c?: unknown) {
        return apply(original, this, at === 0 ? [localesOf(a), b, c] : [a, localesOf(b), c]);
      };
      try {
        define(target, name, method(like(pinned, original, name)));
      } catch {}
    };
    pin(String.prototype, "localeCompare", 1);
    pin(String.prototype, "toLocaleUpperCase", 0);
    pin(String.prototype, "toLocaleLowerCase", 0);
    pin(Number.prototype, "toLocaleString", 0);
    if (typeof BigInt === "function") pin(BigInt.prototype, "toLocaleString", 0);
  }
  // Temporal.Now: the zone is UTC, and what reads the current time in a zone reads it in UTC where
  // the program names none
  const now = (scope.Temporal as { Now?: Record<string, unknown> } | undefined)?.Now;
  if (now && typeof now === "object") {
    try {
      if (typeof now.timeZoneId === "function") {
        define(now, "timeZoneId", method(like(() => "UTC", now.timeZoneId, "timeZoneId")));
      }
      for (const name of ["zonedDateTimeISO", "plainDateTimeISO", "plainDateISO", "plainTimeISO"]) {
        const original = now[name];
        if (typeof original !== "function") continue;
        const zoned = (zone?: unknown) => apply(original, now, [zone === undefined ? "UTC" : zone]);
        define(now, name, method(like(zoned, original, name)));
      }
    } catch {}
  }
}
