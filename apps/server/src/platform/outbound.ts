import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction, type Socket } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Requests the server makes to addresses a tenant chose (webhooks, issue 36). A tenant must not make
 * the server call its own network: every address that is not public unicast (loopback, private,
 * link-local, unique-local, multicast, unspecified, carrier-grade NAT, reserved, and IPv6 forms that
 * embed an IPv4 address) is refused unless a configured network (`WEBHOOK_ALLOWED_NETWORKS`) holds it.
 * The check is on the address actually connected to: names are resolved by our own `lookup`, which
 * hands the socket only allowed addresses, and the socket's peer is checked again once connected.
 * Redirects are never followed.
 */

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A list of CIDRs or single addresses (commas or spaces between): the networks and what could not be read. */
export function parseNetworks(list: string): { networks: string[]; bad: string[] } {
  const networks: string[] = [];
  const bad: string[] = [];
  for (const entry of list.split(/[\s,]+/).filter(Boolean)) {
    try {
      const [addr, bits] = entry.includes("/")
        ? ipaddr.parseCIDR(entry)
        : ((a) => [a, a.kind() === "ipv4" ? 32 : 128] as Network)(ipaddr.parse(entry));
      networks.push(`${addr.toString()}/${bits}`);
    } catch {
      bad.push(entry);
    }
  }
  return { networks, bad };
}

const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address",
  uniqueLocal: "a unique-local address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  carrierGradeNat: "a shared (carrier-grade NAT) address",
  reserved: "a reserved address",
};

/** Why an address may not be called: the address as read, and what it is ("a loopback address"). */
export interface Refusal {
  address: string;
  what: string;
}

export interface AddressPolicy {
  /** Why the address may not be called (null: it may). */
  refusal(address: string): Refusal | null;
}

export function addressPolicy(allowed: readonly string[]): AddressPolicy {
  const nets: Network[] = allowed.map((n) => ipaddr.parseCIDR(n));
  return {
    refusal(address: string): Refusal | null {
      let ip: ipaddr.IPv4 | ipaddr.IPv6;
      try {
        // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
        ip = ipaddr.process(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
      } catch {
        return { address, what: "not an IP address" };
      }
      if (nets.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return null;
      const range = ip.range();
      if (range === "unicast") return null;
      return { address: ip.toString(), what: RANGE_WORDS[range] ?? `not a public address (${range})` };
    },
  };
}

/** A refused target: the request never left. */
export class RefusedAddressError extends Error {
  code = "EREFUSEDADDRESS";
}

/** `dns.lookup`, handing the socket only the addresses the policy allows (all of them refused: an error). */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const ok = addresses.filter((a) => policy.refusal(a.address) === null);
      if (ok.length === 0) {
        const why = addresses[0] ? policy.refusal(addresses[0].address) : null;
        const to = why ? `${why.address}, ${why.what}` : "no address";
        return callback(new RefusedAddressError(`Refused: ${hostname} resolves to ${to}.`));
      }
      if (options.all) return callback(null, ok);
      return callback(null, ok[0]!.address, ok[0]!.family);
    });
  }) as LookupFunction;
}

export interface OutboundResult {
  /** A 2xx answer arrived in time. */
  ok: boolean;
  status: number | null;
  /** The first `maxBodyBytes` of the answer (UTF-8, NULs dropped). */
  body: string | null;
  error: string | null;
  durationMs: number;
}

const plainError = (err: NodeJS.ErrnoException, url: URL): string => {
  if (err instanceof RefusedAddressError) return err.message;
  switch (err.code) {
    case "ECONNREFUSED":
      return `Connection refused by ${url.host}.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `The host name ${url.hostname} could not be resolved.`;
    case "ECONNRESET":
      return "The connection was reset.";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${url.host} is unreachable.`;
    default:
      return err.code ? `${err.message} (${err.code})` : err.message;
  }
};

/**
 * POSTs `body` to `url` once: no redirect followed (a 3xx fails), `timeoutMs` for the whole exchange
 * up to the status line (the body is read only while time remains), the answer's first bytes kept.
 */
export function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { policy: AddressPolicy; timeoutMs: number; maxBodyBytes: number },
): Promise<OutboundResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return Promise.resolve({ ok: false, status: null, body: null, error: "Not a URL.", durationMs: 0 });
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    return Promise.resolve({ ok: false, status: null, body: null, error: "Only http and https.", durationMs: 0 });
  const host = u.hostname.replace(/^\[|\]$/g, "");
  // An address in the URL is never looked up, so it is judged here (and again once connected).
  if (isIP(host)) {
    const why = opts.policy.refusal(host);
    if (why) {
      const error = `Refused: ${why.address} is ${why.what}.`;
      return Promise.resolve({ ok: false, status: null, body: null, error, durationMs: 0 });
    }
  }

  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = size > 0 ? Buffer.concat(chunks).subarray(0, opts.maxBodyBytes).toString("utf8") : "";
      const ok = status !== null && status >= 200 && status < 300;
      resolve({
        ok,
        status,
        body: status === null ? null : text.replace(/\0/g, ""),
        error: ok ? null : (error ?? (status !== null ? `The endpoint answered ${status}.` : "No answer.")),
        durationMs: elapsed(),
      });
      req.destroy();
    };
    const mod = u.protocol === "https:" ? https : http;
    const req = mod.request(u, {
      method: "POST",
      agent: false,
      lookup: guardedLookup(opts.policy),
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)), connection: "close" },
    });
    const timer = setTimeout(() => {
      // Answered in time: what arrived of the body is enough. Not answered: a failure.
      if (status !== null) finish(null);
      else
        finish(`No answer within ${opts.timeoutMs >= 1000 ? `${opts.timeoutMs / 1000} s` : `${opts.timeoutMs} ms`}.`);
    }, opts.timeoutMs);
    req.on("socket", (socket: Socket) => {
      const check = () => {
        const peer = socket.remoteAddress;
        const why = peer ? opts.policy.refusal(peer) : { address: "the peer", what: "unknown" };
        if (why) finish(`Refused: connected to ${why.address}, ${why.what}.`);
      };
      socket.once("connect", check);
    });
    req.on("response", (res) => {
      status = res.statusCode ?? null;
      const redirect = status !== null && status >= 300 && status < 400;
      const location = res.headers.location;
      res.on("data", (c: Buffer) => {
        if (size < opts.maxBodyBytes) chunks.push(c);
        size += c.length;
        if (size >= opts.maxBodyBytes) finish(null);
      });
      res.on("end", () =>
        finish(redirect ? `Redirect not followed (${status}${location ? ` to ${location}` : ""}).` : null),
      );
      res.on("error", () => finish(null));
      if (redirect) {
        finish(`Redirect not followed (${status}${location ? ` to ${location}` : ""}).`);
      }
    });
    req.on("error", (err) => finish(plainError(err as NodeJS.ErrnoException, u)));
    req.end(body);
  });
}
