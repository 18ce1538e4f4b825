import { EmailBody } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { EMAIL_PATTERN, emailError } from "./forms";

const addresses = [
  "ada@example.com",
  "  Ada.Lovelace@Example.COM ",
  "o'brien+tag@mail.example.co.uk",
  "a_b-c@sub-domain.example.org",
  "x@y.io",
  "",
  "plain",
  "no-at.example.com",
  "two@@example.com",
  ".dot@example.com",
  "dot.@example.com",
  "a..b@example.com",
  "ada@localhost",
  "ada@-bad.com",
  "ada@example.c",
  "ada@exam_ple.com",
  "ada lovelace@example.com",
  "ada@example.com.",
  "élodie@example.com",
];

describe("e-mail check by hand (the sign-in page carries no zod)", () => {
  it("gives the contract's verdict and message on every address", () => {
    for (const address of addresses) {
      const contract = EmailBody.safeParse({ email: address });
      const expected = address.trim()
        ? contract.success
          ? undefined
          : contract.error.issues[0]?.message
        : "E-mail is required";
      expect(emailError(address), address).toBe(expected);
    }
  });

  it("is zod's own e-mail pattern", async () => {
    const { regexes } = await import("zod/v4/core");
    for (const address of addresses) expect(EMAIL_PATTERN.test(address), address).toBe(regexes.email.test(address));
  });
});
