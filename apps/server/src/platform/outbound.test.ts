import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressPolicy, parseNetworks, postOnce } from "./outbound.ts";

/** The guard on requests to addresses a tenant chose (issue 36): which addresses, and the one POST. */
describe("address policy", () => {
  const strict = addressPolicy([]);
  it("refuses every address that is not public unicast, IPv4 and IPv6", () => {
    const refused: Array<[string, string]> = [
      ["127.0.0.1", "a loopback address"],
      ["127.8.9.10", "a loopback address"],
      ["10.0.0.1", "a private address"],
      ["172.16.5.4", "a private address"],
      ["192.168.1.1", "a private address"],
      ["169.254.169.254", "a link-local address"],
      ["100.64.0.1", "a shared (carrier-grade NAT) address"],
      ["0.0.0.0", "an unspecified address"],
      ["224.0.0.1", "a multicast address"],
      ["255.255.255.255", "a broadcast address"],
      ["::1", "a loopback address"],
      ["::", "an unspecified address"],
      ["fe80::1", "a link-local address"],
      ["fd12:3456::1", "a unique-local address"],
      ["ff02::1", "a multicast address"],
    ];
    for (const [address, what] of refused) expect(strict.refusal(address), address).toMatchObject({ what });
    // IPv4 inside IPv6: judged as the IPv4 address, or refused outright when it is a translation form.
    expect(strict.refusal("::ffff:10.0.0.1")).toEqual({ address: "10.0.0.1", what: "a private address" });
    expect(strict.refusal("64:ff9b::7f00:1")).not.toBeNull();
    expect(strict.refusal("2002:7f00:1::1")).not.toBeNull();
    for (const ok of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect(strict.refusal(ok), ok).toBeNull();
  });

  it("lets the configured networks through, and only those", () => {
    const p = addressPolicy(parseNetworks("127.0.0.0/8, 10.1.0.0/16 ::1").networks);
    for (const ok of ["127.0.0.1", "127.255.0.9", "10.1.200.3", "::1", "::ffff:127.0.0.1"])
      expect(p.refusal(ok), ok).toBeNull();
    for (const no of ["10.2.0.1", "192.168.0.1", "fe80::1"]) expect(p.refusal(no), no).not.toBeNull();
  });

  it("reads CIDRs and single addresses, and names what it cannot read", () => {
    expect(parseNetworks("")).toEqual({ networks: [], bad: [] });
    expect(parseNetworks("10.0.0.0/8,192.168.1.5 fd00::/8")).toEqual({
      networks: ["10.0.0.0/8", "192.168.1.5/32", "fd00::/8"],
      bad: [],
    });
    expect(parseNetworks("10.0.0.0/33,localhost,1.2.3.4").bad).toEqual(["10.0.0.0/33", "localhost"]);
  });
});

describe("postOnce", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/silent") return; // never answers
      if (req.url === "/big") return res.end("x".repeat(5000));
      res.end("ok");
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  const allowLoopback = addressPolicy(["127.0.0.0/8"]);
  const opts = { policy: allowLoopback, timeoutMs: 10_000, maxBodyBytes: 1024 };

  it("keeps the first bytes of the answer only", async () => {
    const r = await postOnce(`${base}/big`, "{}", {}, opts);
    expect(r).toMatchObject({ ok: true, status: 200, error: null });
    expect(r.body).toBe("x".repeat(1024));
  });

  it("gives up when no answer comes within its time", async () => {
    const r = await postOnce(`${base}/silent`, "{}", {}, { ...opts, timeoutMs: 300 });
    expect(r).toMatchObject({ ok: false, status: null, error: "No answer within 300 ms." });
  });

  it("refuses an address in the URL before connecting, and a name resolving to one when it looks it up", async () => {
    const strict = { ...opts, policy: addressPolicy([]) };
    const literal = await postOnce(`${base}/ok`, "{}", {}, strict);
    expect(literal).toMatchObject({ ok: false, status: null, error: "Refused: 127.0.0.1 is a loopback address." });
    const named = await postOnce(base.replace("127.0.0.1", "localhost"), "{}", {}, strict);
    expect(named.error).toMatch(/^Refused: localhost resolves to /);
    expect((await postOnce(`${base}/ok`, "{}", {}, opts)).ok).toBe(true);
  });
});
