// Which IP addresses belong to the host's own network: loopback, link-local, private, unspecified,
// multicast and reserved ranges, in IPv4 and IPv6, including the IPv6 forms that carry an IPv4
// address (mapped, compatible, NAT64, 6to4, Teredo). Requests to them are refused unless the host
// lists them in `internalUrls`.

/** The four octets of a dotted-decimal IPv4 address, or undefined. */
function ipv4Octets(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const octets: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    octets.push(octet);
  }
  return octets;
}

/** The eight 16-bit groups of an IPv6 address (brackets and a zone allowed), or undefined. */
function ipv6Groups(input: string): number[] | undefined {
  let text = input.toLowerCase().replace(/^\[|\]$/g, "");
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(":")) return undefined;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const octets = ipv4Octets(tail);
    if (!octets) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (half: string | undefined): number[] | undefined => {
    if (!half) return [];
    const groups: number[] = [];
    for (const group of half.split(":")) {
      if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined;
      groups.push(Number.parseInt(group, 16));
    }
    return groups;
  };
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !rest) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - rest.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...rest];
}

function internalIpv4([a = 0, b = 0, c = 0]: readonly number[]): boolean {
  return (
    a === 0 || // "this network", unspecified
    a === 10 || // private
    a === 127 || // loopback
    (a === 100 && b >= 64 && b <= 127) || // shared address space (carrier-grade NAT)
    (a === 169 && b === 254) || // link-local (cloud metadata services live here)
    (a === 172 && b >= 16 && b <= 31) || // private
    (a === 192 && b === 168) || // private
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

const v4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255];

function internalIpv6(groups: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, , g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return internalIpv4(v4Of(g6, g7)); // ::ffff:a.b.c.d, mapped
  if (zeroTo(6)) return true; // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b) {
    // NAT64: the well-known prefix carries the IPv4 address; the local-use one is the host's own
    return g2 === 1 || internalIpv4(v4Of(g6, g7));
  }
  if (g0 === 0x2002) return internalIpv4(v4Of(g1, g2)); // 6to4
  if (g0 === 0x2001 && g1 === 0) {
    // Teredo: the client's IPv4 address, inverted, is in the last two groups
    return internalIpv4(v4Of(g6 ^ 0xffff, g7 ^ 0xffff));
  }
  return (
    (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) || // discard-only
    (g0 & 0xffc0) === 0xfe80 || // link-local
    (g0 & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (g0 & 0xfe00) === 0xfc00 || // unique local (private)
    (g0 & 0xff00) === 0xff00 // multicast
  );
}

/** Whether `text` is an IP address (IPv4 dotted decimal, or IPv6 with or without brackets). */
export function isIpAddress(text: string): boolean {
  return ipv4Octets(text) !== undefined || ipv6Groups(text) !== undefined;
}

/**
 * Whether an IP address belongs to the host's own network (loopback, link-local, private,
 * unspecified, multicast or reserved), in either family and in IPv6's forms of an IPv4 address.
 * Text that is not an address counts as internal: what cannot be classified is not let through.
 */
export function isInternalAddress(text: string): boolean {
  const v4 = ipv4Octets(text);
  if (v4) return internalIpv4(v4);
  const v6 = ipv6Groups(text);
  return v6 ? internalIpv6(v6) : true;
}
