import { API_KEY_PREFIX, CSRF, LISTING_PAGE_SIZE_MAX, PERSONAL_TOKEN_PREFIX } from "@hangar/contract";

/** The document's introduction (info.description, Markdown): what no single operation says. */
export const OPENAPI_DESCRIPTION = `Hangar's HTTP API: everything the web app does, it does through these operations.
Paths are under \`/api/v1\`; bodies and answers are JSON unless an operation says otherwise.

## Authenticating

**API keys** (for programs). A workspace ADMIN creates one in Settings → API keys; send it as
\`Authorization: Bearer ${API_KEY_PREFIX}…\`. A key works only on its own workspace's operations
(\`/api/v1/workspaces/{id}/…\`: another workspace answers 404, operations outside a workspace 403), needs
the scope each operation names in \`x-api-key-scope\` (\`admin\` covers all), needs no CSRF token and is
rate-limited on its own (429 with \`Retry-After\`). What it writes is authored by the key's creator.

**Personal access tokens** (for a person's scripts). Anyone creates one on their account page; send it
as \`Authorization: Bearer ${PERSONAL_TOKEN_PREFIX}…\`. It acts as its user in every workspace they belong to,
with their role there (capped by its scopes, named as for keys: without \`admin\` at most an EDITOR),
needs no CSRF token, is rate-limited on its own and always expires (at most a year). It cannot manage
tokens or API keys, nor change the account's password or e-mail (403); a password change or reset
revokes every token of the account.

**Signing in and CSRF** (for browsers and scripts acting as a person). Every mutation (POST, PUT,
PATCH, DELETE) made with cookies needs the double-submit token: the \`${CSRF.cookie}\` cookie and the
same value in the \`${CSRF.altHeader}\` header (or \`${CSRF.header}\`). The dance:
1. \`GET /api/v1/users/set-csrf-token\` answers a token and sets the cookie;
2. \`POST /api/v1/users/login\` with it sets the session cookie **and a new token** in the
   \`${CSRF.cookie}\` cookie, bound to that session: a token fetched before sign-in is refused after it,
   so use the new cookie's value (or fetch \`set-csrf-token\` again, which answers a token bound to the
   session);
3. send the session cookie, the \`${CSRF.cookie}\` cookie and the header on each mutation. A 403 with
   code \`CSRF_FAILED\` means the token is missing, stale or from another session: fetch a new one.
The same renewal happens wherever a session starts (e-mail verification, a password change).

## Errors

Every error answers \`{detail, code, errors?}\` (schema \`Error\`): \`detail\` is a sentence for people,
\`code\` a stable name (\`NOT_FOUND\`, \`VALIDATION_FAILED\`…), and a 422 lists \`errors[].field\` with
\`message\`. What a caller may not see answers 404, never 403.

## Listing assets and paging

\`POST /api/v1/workspaces/{id}/assets\` takes the filter and order as its body and answers
\`{data, pagination}\`. Page with \`page\` (from 1, \`page_size\` up to ${LISTING_PAGE_SIZE_MAX}), or, to walk a
whole listing, with \`cursor\`: every answer with more after it carries \`pagination.next_cursor\`; send
it back (same filter and \`order_by\`, no \`page\`) for the next page. A cursor names the position after
the page's last asset, so each page costs what the first does however deep the walk, and assets
added meanwhile never make it repeat or skip one that was there when it started (an asset whose sort
key changes during the walk may move across the cursor). A cursor page answers \`page: 0\`; a cursor
the server did not give (or made for another \`order_by\`) answers 422. With the live events of
\`GET /api/v1/workspaces/{id}/events\`, a program can walk once and then follow the changes.

## Uploading a file

1. \`POST /api/v1/workspaces/{id}/assets/upload\` with \`{name, size, content_type?, board_id?}\` answers
   \`upload_id\`, \`key\` and where to send the bytes: one \`direct_url\`, or \`parts\` (each with its byte
   range and \`url\`, \`part_size\` bytes but the last);
2. \`PUT\` the bytes to each URL (they are signed: no session, key or CSRF token; relative URLs are
   relative to the server). Each answers its \`ETag\`;
3. \`POST /api/v1/workspaces/{id}/assets/upload/complete\` with \`{upload_id, key, parts: [{part_number,
   etag}]}\` (a \`direct_url\` upload completes by its PUT; completing it again is harmless). The asset
   is then processed (\`status\` becomes \`COMPLETED\`, or \`error\`).
`;
