import { describe, expect, it } from "vitest";
import { mockConnector } from "../test/mock-connector.ts";
import { createConfigurator, missingConnectors } from "./configuration.ts";

describe("createConfigurator", () => {
  it("checks connectors that list at once when it is made", () => {
    expect(() =>
      createConfigurator([
        mockConnector({
          name: "bad",
          methods: { write: { requiresApproval: true, replay: "reexecute" } },
        }),
      ]),
    ).toThrow(expect.objectContaining({ code: "INVALID_CONFIG" }));
    const configurator = createConfigurator([mockConnector({ name: "ok", methods: { read: {} } })]);
    expect(configurator.current?.connectors.has("ok")).toBe(true);
  });

  it("lists asynchronous connectors once, and again after a failure", async () => {
    let listings = 0;
    let fail = true;
    const base = mockConnector({ name: "remote", methods: { read: {} } });
    const remote = {
      ...base,
      methods: async () => {
        listings++;
        if (fail) throw new Error("down");
        return { read: {} };
      },
    };
    const configurator = createConfigurator([remote]);
    expect(configurator.current).toBeUndefined();
    await expect(configurator.configure()).rejects.toThrow("down");
    fail = false;
    const config = await configurator.configure();
    await configurator.configure();
    expect(listings).toBe(2);
    expect(missingConnectors(config, ["remote", "gone"])).toEqual(["gone"]);
  });
});
