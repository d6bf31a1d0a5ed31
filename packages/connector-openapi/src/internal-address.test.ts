import { describe, expect, it } from "vitest";
import { isInternalAddress, isIpAddress } from "./internal-address.ts";

describe("isInternalAddress", () => {
  it("finds loopback, link-local, private, unspecified and reserved IPv4", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of [
      "93.184.216.34",
      "172.32.0.1",
      "100.128.0.1",
      "8.8.8.8",
      "203.0.113.7",
    ]) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it("finds them in IPv6 and in IPv6's forms of an IPv4 address", () => {
    for (const address of [
      "::",
      "::1",
      "[::1]",
      "0:0:0:0:0:0:0:1",
      "fe80::1%eth0",
      "fd00::5",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "[::ffff:a9fe:a9fe]",
      "::127.0.0.1",
      "64:ff9b::10.0.0.1",
      "64:ff9b:1::1",
      "2002:7f00:1::",
      "2001:0:4136:e378:8000:63bf:80ff:fffe",
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of [
      "2606:2800:220:1:248:1893:25c8:1946",
      "::ffff:93.184.216.34",
      "64:ff9b::808:808",
    ]) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it("counts what is not an address as internal, and tells addresses from names", () => {
    expect(isInternalAddress("example.com")).toBe(true);
    expect(isInternalAddress("1.2.3")).toBe(true);
    expect(isInternalAddress("1::2::3")).toBe(true);
    expect(isIpAddress("127.0.0.1")).toBe(true);
    expect(isIpAddress("[::1]")).toBe(true);
    expect(isIpAddress("localhost")).toBe(false);
  });
});
