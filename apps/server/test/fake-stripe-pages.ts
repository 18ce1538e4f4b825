import type { ServerResponse } from "node:http";
import { escapeHtml } from "./fake-stripe-form.ts";
import type { Obj } from "./fake-stripe-types.ts";

/** The fake's hosted checkout page: the plan, its price, a card field and a Pay button. */
export function checkoutPage(
  session: Record<string, unknown>,
  price: { unit_amount: number; currency: string; recurring: { interval: string } },
  error?: string,
) {
  const amount = `${(price.unit_amount / 100).toFixed(2)} ${price.currency.toUpperCase()} / ${price.recurring.interval}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:48px auto;color:#1a1f36}
label{display:block;margin:16px 0 4px}input{width:100%;padding:10px;font-size:16px;box-sizing:border-box}
button{margin-top:20px;width:100%;padding:12px;font-size:16px;background:#635bff;color:#fff;border:0;border-radius:6px}
.error{color:#df1b41;margin-top:12px}.note{color:#697386;font-size:13px}</style></head><body>
<p class="note">Test mode · a fake of Stripe Checkout for Hangar's tests</p>
<h1>Subscribe</h1><p data-testid="amount">${escapeHtml(amount)}</p>
<form method="post" action="/pay/${escapeHtml(String(session.id))}">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" autocomplete="off" placeholder="4242 4242 4242 4242">
<label for="exp">Expiry</label><input id="exp" name="exp" placeholder="12 / 34">
<label for="cvc">CVC</label><input id="cvc" name="cvc" placeholder="123">
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<button type="submit">Pay and subscribe</button></form>
<p><a href="${escapeHtml(String(session.cancel_url))}">Cancel and go back</a></p></body></html>`;
}

export function portalPage(returnUrl: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake billing portal</title></head>
<body><h1>Billing portal</h1><p>Invoices and the card on file (fake).</p>
<a href="${escapeHtml(returnUrl)}">Return to Hangar</a></body></html>`;
}

/** The fake's browser pages: the hosted checkout (GET shows it, POST pays with the card typed) and the portal. */
export function servePage(
  method: string,
  url: URL,
  form: Record<string, unknown>,
  res: ServerResponse,
  shop: {
    session(id: string): Obj | undefined;
    priceOf(id: unknown): Parameters<typeof checkoutPage>[1];
    pay(session: Obj, card: string): { ok: true; redirect: string } | { ok: false; message: string };
  },
) {
  const html = (status: number, body: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  };
  if (url.pathname.startsWith("/portal/")) return html(200, portalPage(url.searchParams.get("return") ?? "/"));
  const session = shop.session(url.pathname.slice("/pay/".length));
  if (!session) return html(404, "<h1>No such checkout session</h1>");
  const price = shop.priceOf((session.line_items as Array<{ price: string }>)[0]?.price);
  if (method === "GET") return html(200, checkoutPage(session, price));
  const result = shop.pay(session, String(form.card_number ?? ""));
  if (!result.ok) return html(402, checkoutPage(session, price, result.message));
  res.writeHead(303, { location: result.redirect });
  res.end();
}
